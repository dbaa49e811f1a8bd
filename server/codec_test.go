package server

import (
	"testing"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"google.golang.org/protobuf/proto"
)

// FuzzDecodeProblem feeds arbitrary bytes to the server's reading of a
// request it could not decode: it never panics, and names a field as
// invalid UTF-8 only in a request the protobuf decoder refuses too.
func FuzzDecodeProblem(f *testing.F) {
	good, _ := proto.Marshal(&toolsearchv1.UpsertToolsRequest{Tools: []*toolsearchv1.Tool{{Name: "a", Description: "b"}}})
	f.Add(good)
	f.Add([]byte{0x0a, 0x05, 'o', 'k', 0xff, 0x0a, 0x0a})
	f.Add([]byte{0x0a, 0x04, 0x0a, 0x02, 0xc3, 0x28})
	f.Add([]byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f})
	md := (&toolsearchv1.UpsertToolsRequest{}).ProtoReflect().Descriptor()
	f.Fuzz(func(t *testing.T, b []byte) {
		// A field's bytes may be invalid UTF-8 inside a message that is
		// valid UTF-8 as a whole (a field boundary splits a character), so
		// the check is against the decoder: it must fail too.
		path, ok := invalidUTF8Field(b, md, "")
		err := proto.Unmarshal(b, &toolsearchv1.UpsertToolsRequest{})
		if err == nil && ok {
			t.Fatalf("field %s reported invalid in a request that decodes", path)
		}
		if err != nil {
			_ = decodeProblem(b, md, err)
		}
	})
}

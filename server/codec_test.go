package server

import (
	"testing"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"google.golang.org/protobuf/proto"
)

// FuzzDecodeProblem feeds arbitrary bytes to the server's reading of a
// request it could not decode: it never panics, names a field only when
// the bytes do hold invalid UTF-8, and a request that decodes has no
// problem to report.
func FuzzDecodeProblem(f *testing.F) {
	good, _ := proto.Marshal(&toolsearchv1.UpsertToolsRequest{Tools: []*toolsearchv1.Tool{{Name: "a", Description: "b"}}})
	f.Add(good)
	f.Add([]byte{0x0a, 0x05, 'o', 'k', 0xff, 0x0a, 0x0a})
	f.Add([]byte{0x0a, 0x04, 0x0a, 0x02, 0xc3, 0x28})
	f.Add([]byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f})
	md := (&toolsearchv1.UpsertToolsRequest{}).ProtoReflect().Descriptor()
	f.Fuzz(func(t *testing.T, b []byte) {
		path, ok := invalidUTF8Field(b, md, "")
		if ok && utf8.Valid(b) {
			t.Fatalf("field %s reported invalid in bytes that are all UTF-8", path)
		}
		err := proto.Unmarshal(b, &toolsearchv1.UpsertToolsRequest{})
		if err == nil && ok {
			t.Fatalf("field %s reported invalid in a request that decodes", path)
		}
		if err != nil {
			_ = decodeProblem(b, md, err)
		}
	})
}

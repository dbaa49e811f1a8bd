package server_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/servertest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// rawCodec sends and receives a message's bytes as they are: the test
// client's way to put on the wire what generated code refuses to encode
// (invalid UTF-8, broken protobuf). The server under test is the real one.
type rawCodec struct{}

type rawMessage struct{ b []byte }

func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(v.(*rawMessage).b)}, nil
}

func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	v.(*rawMessage).b = data.Materialize()
	return nil
}

func (rawCodec) Name() string { return "proto" }

// callRaw sends body to method on the server at addr and returns the
// status.
func callRaw(t *testing.T, addr, method string, body []byte, md ...string) error {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := ctx(t)
	if len(md) > 0 {
		c = metadata.AppendToOutgoingContext(c, md...)
	}
	var out rawMessage
	return conn.Invoke(c, method, &rawMessage{b: body}, &out, grpc.ForceCodecV2(rawCodec{}))
}

// withBytes marshals m and replaces the placeholder in it with bad, which
// must have the same length.
func withBytes(t *testing.T, m proto.Message, placeholder, bad string) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(placeholder) != len(bad) || !bytes.Contains(b, []byte(placeholder)) {
		t.Fatalf("placeholder %q not in the message, or not as long as %q", placeholder, bad)
	}
	return bytes.Replace(b, []byte(placeholder), []byte(bad), 1)
}

// TestInvalidRequestsAreInvalidArgument: a request the server cannot decode
// (a string that is not UTF-8, bytes that are not protobuf) is
// INVALID_ARGUMENT naming the field to fix, not grpc-go's INTERNAL, and the
// message does not quote the request.
func TestInvalidRequestsAreInvalidArgument(t *testing.T) {
	f := start(t, true)
	upsert := &toolsearchv1.UpsertToolsRequest{Tools: []*toolsearchv1.Tool{
		{Name: "fine_tool", Description: "fine"},
		{Name: "other_tool", Description: "text with PLACEHOLDER in it"},
	}}
	tests := []struct {
		name, method string
		body         []byte
		want         string
	}{
		{"query not UTF-8", "/toolsearch.v1.ToolSearchService/Search",
			protowire.AppendString(protowire.AppendTag(nil, 1, protowire.BytesType), "send a message \xff\xfe"),
			"request field query is not valid UTF-8"},
		{"description not UTF-8", "/toolsearch.v1.ToolSearchService/UpsertTools",
			withBytes(t, upsert, "PLACEHOLDER", "PLACE\xc3\x28HOL\xff"),
			"request field tools[1].description is not valid UTF-8"},
		{"names not UTF-8", "/toolsearch.v1.ToolSearchService/GetTools",
			withBytes(t, &toolsearchv1.GetToolsRequest{Names: []string{"a", "PLACEHOLDER"}}, "PLACEHOLDER", "PLACEHOLDE\xff"),
			"request field names[1] is not valid UTF-8"},
		{"not protobuf", "/toolsearch.v1.ToolSearchService/Search", []byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f},
			"the request is not a valid toolsearch.v1.SearchRequest message"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := callRaw(t, f.addr, tt.method, tt.body)
			if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want INVALID_ARGUMENT with %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "PLACE") || strings.Contains(err.Error(), "send a message") {
				t.Errorf("the error quotes the request: %v", err)
			}
		})
	}
	// The server still answers well-formed requests.
	if _, err := f.client.Search(ctx(t), "weather"); err != nil {
		t.Errorf("Search after bad requests: %v", err)
	}
}

// TestHealthWatchAuthenticatedAndBounded: with a token, health Check stays
// open to probes but Watch needs the token; and no more than
// MaxHealthWatches Watch streams are held at once.
func TestHealthWatchAuthenticatedAndBounded(t *testing.T) {
	const token = "a-long-enough-test-token-0123456789"
	srv := server.New(server.Config{Log: discardLogger(), AuthToken: token})
	srv.Ready(newEngine(t))
	addr := servertest.Serve(t, srv)
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	hc := healthpb.NewHealthClient(conn)

	if _, err := hc.Check(ctx(t), &healthpb.HealthCheckRequest{}); err != nil {
		t.Errorf("Check without a token: %v, want OK (probes send none)", err)
	}
	w, err := hc.Watch(ctx(t), &healthpb.HealthCheckRequest{})
	if err == nil {
		_, err = w.Recv()
	}
	if status.Code(err) != codes.Unauthenticated {
		t.Errorf("Watch without a token: %v, want UNAUTHENTICATED", err)
	}

	authed, cancelAll := context.WithCancel(metadata.AppendToOutgoingContext(ctx(t), "authorization", "Bearer "+token))
	defer cancelAll()
	var cancels []context.CancelFunc
	for i := range server.MaxHealthWatches {
		c, cancel := context.WithCancel(authed)
		cancels = append(cancels, cancel)
		w, err := hc.Watch(c, &healthpb.HealthCheckRequest{})
		if err == nil {
			_, err = w.Recv() // the first status: the stream is open on the server
		}
		if err != nil {
			t.Fatalf("Watch %d with the token: %v", i, err)
		}
	}
	over := func() error {
		w, err := hc.Watch(authed, &healthpb.HealthCheckRequest{})
		if err == nil {
			_, err = w.Recv()
		}
		return err
	}
	if err := over(); status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "Check") {
		t.Errorf("Watch %d: %v, want RESOURCE_EXHAUSTED pointing to Check", server.MaxHealthWatches+1, err)
	}
	cancels[0]() // one ends: a new one may open
	deadline := ctx(t)
	for {
		c, cancel := context.WithCancel(authed)
		w, err := hc.Watch(c, &healthpb.HealthCheckRequest{})
		if err == nil {
			_, err = w.Recv()
		}
		if err == nil {
			cancels = append(cancels, cancel)
			break
		}
		cancel()
		if deadline.Err() != nil {
			t.Fatalf("no Watch accepted after one ended: %v", err)
		}
	}
	for _, c := range cancels {
		c()
	}
}

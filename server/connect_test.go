package server_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/logbuf"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/internal/tracecontext"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/servertest"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// jsonCall POSTs body to path on addr (the gRPC port) and returns the HTTP
// status and the decoded JSON answer.
func jsonCall(t *testing.T, addr, path, contentType, body string, header map[string]string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx(t), http.MethodPost, "http://"+addr+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s answered %d with a body that is not JSON: %q", path, resp.StatusCode, b)
	}
	return resp.StatusCode, out
}

const searchPath = "/toolsearch.v1.ToolSearchService/Search"

// TestJSONMatchesGRPC: the same call over gRPC and as JSON over HTTP on the
// same port gives the same answer, or the same status code and message
// with the code's HTTP status.
func TestJSONMatchesGRPC(t *testing.T) {
	const token = "a-long-enough-test-token-0123456789"
	srv := server.New(server.Config{Log: discardLogger(), AuthToken: token, MaxMessageSize: 64 << 10})
	srv.Ready(newEngine(t))
	addr := servertest.Serve(t, srv)
	authed := map[string]string{"Authorization": "Bearer " + token}
	tests := []struct {
		name       string
		query      string
		grpcOpts   []toolsearch.SearchOption
		grpcToken  string
		json       string
		header     map[string]string
		wantHTTP   int
		wantCode   codes.Code
		sameMsg    bool // the message is the same (not for size errors: the encodings differ in size)
		wantResult bool
	}{
		{name: "search", query: "send slack message", grpcToken: token, json: `{"query":"send slack message"}`, header: authed, wantHTTP: 200, wantResult: true},
		{name: "camelCase fields", query: "send slack message", grpcToken: token, grpcOpts: []toolsearch.SearchOption{toolsearch.WithMaxResults(2)},
			json: `{"query":"send slack message","maxResults":2}`, header: authed, wantHTTP: 200, wantResult: true},
		{name: "invalid regex", query: "(", grpcToken: token, grpcOpts: []toolsearch.SearchOption{toolsearch.WithSearchType(toolsearchv1.SearchType_SEARCH_TYPE_REGEX)},
			json: `{"query":"(","search_type":"SEARCH_TYPE_REGEX"}`, header: authed, wantHTTP: 400, wantCode: codes.InvalidArgument, sameMsg: true},
		{name: "no token", query: "send slack message", json: `{"query":"send slack message"}`, wantHTTP: 401, wantCode: codes.Unauthenticated, sameMsg: true},
		{name: "wrong token", query: "send slack message", grpcToken: "wrong-token-0123456789abcdef", json: `{"query":"send slack message"}`,
			header: map[string]string{"Authorization": "Bearer wrong-token-0123456789abcdef"}, wantHTTP: 401, wantCode: codes.Unauthenticated, sameMsg: true},
		{name: "request over the limit", query: strings.Repeat("slack ", 20<<10), grpcToken: token, json: `{"query":"` + strings.Repeat("slack ", 20<<10) + `"}`,
			header: authed, wantHTTP: 429, wantCode: codes.ResourceExhausted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts []toolsearch.Option
			if tt.grpcToken != "" {
				opts = append(opts, toolsearch.WithBearerToken(tt.grpcToken))
			}
			c, err := toolsearch.Dial(addr, append([]toolsearch.Option{toolsearch.WithTimeout(testenv.HangGuard(t))}, opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			resp, grpcErr := c.Search(ctx(t), tt.query, tt.grpcOpts...)
			code, body := jsonCall(t, addr, searchPath, "application/json", tt.json, tt.header)
			if code != tt.wantHTTP || status.Code(grpcErr) != tt.wantCode {
				t.Fatalf("HTTP %d, gRPC %v; want HTTP %d, gRPC %v (JSON answer %v)", code, grpcErr, tt.wantHTTP, tt.wantCode, body)
			}
			if tt.wantResult {
				var got []string
				refs, _ := body["tool_references"].([]any)
				for _, r := range refs {
					got = append(got, r.(map[string]any)["tool_name"].(string))
				}
				if diff := cmp.Diff(names(resp), got); diff != "" || len(got) == 0 {
					t.Errorf("JSON tool names differ from gRPC's (-grpc +json):\n%s", diff)
				}
				return
			}
			if body["code"] != connectName(tt.wantCode) {
				t.Errorf("JSON code %v, want %s", body["code"], connectName(tt.wantCode))
			}
			if msg := status.Convert(grpcErr).Message(); tt.sameMsg && body["message"] != msg {
				t.Errorf("JSON message %q, want gRPC's %q", body["message"], msg)
			}
		})
	}
}

// connectName is the Connect protocol's name of a code.
func connectName(c codes.Code) string {
	return map[codes.Code]string{
		codes.InvalidArgument: "invalid_argument", codes.Unauthenticated: "unauthenticated",
		codes.ResourceExhausted: "resource_exhausted", codes.Unimplemented: "unimplemented",
	}[c]
}

// TestJSONProtocolErrors: what HTTP itself refuses, and health Check without
// a token.
func TestJSONProtocolErrors(t *testing.T) {
	const token = "a-long-enough-test-token-0123456789"
	srv := server.New(server.Config{Log: discardLogger(), AuthToken: token})
	srv.Ready(newEngine(t))
	addr := servertest.Serve(t, srv)
	tests := []struct {
		name, path, contentType, body string
		header                        map[string]string
		wantHTTP                      int
		wantCode                      string
	}{
		{"health check needs no token", "/grpc.health.v1.Health/Check", "application/json", `{"service":"toolsearch.v1.ToolSearchService"}`, nil, 200, ""},
		{"unknown method", "/toolsearch.v1.ToolSearchService/Nope", "application/json", `{}`, nil, 501, "unimplemented"},
		{"wrong content type", searchPath, "text/plain", `{}`, nil, 415, "invalid_argument"},
		{"gRPC content type over HTTP/1.1", searchPath, "application/grpc", ``, nil, 415, "invalid_argument"},
		{"unknown field, after the token", searchPath, "application/json", `{"query":"x","bogus":1}`, map[string]string{"Authorization": "Bearer " + token}, 400, "invalid_argument"},
		{"unknown field, no token", searchPath, "application/json", `{"query":"x","bogus":1}`, nil, 401, "unauthenticated"},
		{"bad timeout", searchPath, "application/json", `{}`, map[string]string{"Connect-Timeout-Ms": "soon"}, 400, "invalid_argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := jsonCall(t, addr, tt.path, tt.contentType, tt.body, tt.header)
			if code != tt.wantHTTP {
				t.Fatalf("HTTP %d (%v), want %d", code, body, tt.wantHTTP)
			}
			if tt.wantCode == "" {
				if body["status"] != "SERVING" {
					t.Errorf("health = %v, want SERVING", body)
				}
				return
			}
			if body["code"] != tt.wantCode || body["message"] == "" {
				t.Errorf("answer %v, want code %s and a message", body, tt.wantCode)
			}
		})
	}
	// GET is refused with the method allowed.
	resp, err := http.Get("http://" + addr + searchPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != http.MethodPost {
		t.Errorf("GET: %d, Allow %q; want 405 and Allow: POST", resp.StatusCode, resp.Header.Get("Allow"))
	}
}

// TestJSONTraceContext: a JSON call's traceparent header is its trace
// context, in its log line.
func TestJSONTraceContext(t *testing.T) {
	var logs logbuf.Buffer
	srv := server.New(server.Config{Log: slog.New(tracecontext.LogHandler(slog.NewJSONHandler(&logs, nil)))})
	srv.Ready(newEngine(t))
	addr := servertest.Serve(t, srv)
	code, _ := jsonCall(t, addr, searchPath, "application/json", `{"query":"send slack message"}`,
		map[string]string{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"})
	if code != 200 {
		t.Fatalf("HTTP %d", code)
	}
	if !strings.Contains(logs.String(), `"trace_id":"4bf92f3577b34da6a3ce929d0e0e4736"`) {
		t.Errorf("log %s, want the trace_id", logs.String())
	}
}

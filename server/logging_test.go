package server_test

import (
	"log/slog"
	"strings"
	"testing"
	"unicode/utf8"

	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/logbuf"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/internal/tracecontext"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/servertest"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// longestRun returns the longest run of query's characters, in characters,
// found anywhere in line.
func longestRun(line, query string) int {
	best := 0
	for i := range line {
		for j := len(line); j > i; j-- {
			if n := utf8.RuneCountInString(line[i:j]); n > best && strings.Contains(query, line[i:j]) {
				best = n
				break
			}
		}
	}
	return best
}

// secret marks the part of each query that must not reach the log.
const secret = "sk-live-7f3a9c1e5b2d8f4a6c0e"

// loggedQueries are searches whose query carries secret after more than the
// logged prefix, each answered in a way that may repeat the query: results,
// an invalid regex (the parse error repeats the pattern), a scope error, and
// a call without the token.
var loggedQueries = []struct {
	name   string
	query  string
	opts   []toolsearch.SearchOption
	token  string
	wantOK bool
}{
	{name: "keyword", query: "send a message to the channel about the quarterly numbers and the password " + secret, wantOK: true},
	{name: "invalid regex", query: "(send|post)_message.*channel.*(password|token|credential).*quarterly.*numbers.*now[" + secret + "(",
		opts: []toolsearch.SearchOption{toolsearch.WithSearchType(toolsearchv1.SearchType_SEARCH_TYPE_REGEX)}},
	{name: "select of unknown tools", query: "select:an_unknown_tool_with_a_very_long_name_that_goes_past_the_prefix_" + secret, wantOK: true},
	{name: "unauthenticated", query: "find the tool that reads the secret vault entry " + secret, token: "wrong-token-0123456789abcdef"},
}

// TestLogsNeverHoldMoreThanTheQueryPrefix: no log line of the server holds
// more of a query than --log-queries allows — not in "query", not in
// "error" — and a call refused for its token logs nothing of its request.
func TestLogsNeverHoldMoreThanTheQueryPrefix(t *testing.T) {
	const token = "a-long-enough-test-token-0123456789"
	for _, mode := range []server.QueryLogMode{server.QueryLogPrefix, server.QueryLogHash, server.QueryLogOff} {
		t.Run(mode.String(), func(t *testing.T) {
			var logs logbuf.Buffer
			srv := server.New(server.Config{Log: slog.New(slog.NewJSONHandler(&logs, nil)), AuthToken: token, QueryLog: mode})
			srv.Ready(newEngine(t))
			addr := servertest.Serve(t, srv)
			for _, q := range loggedQueries {
				tok := token
				if q.token != "" {
					tok = q.token
				}
				c, err := toolsearch.Dial(addr, toolsearch.WithBearerToken(tok), toolsearch.WithTimeout(testenv.HangGuard(t)))
				if err != nil {
					t.Fatal(err)
				}
				_, err = c.Search(ctx(t), q.query, q.opts...)
				c.Close()
				if (err == nil) != q.wantOK {
					t.Errorf("%s: Search error %v, want ok=%v", q.name, err, q.wantOK)
				}
				if q.name == "invalid regex" && (status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), secret)) {
					t.Errorf("%s: %v; want INVALID_ARGUMENT repeating the pattern to the caller (it is the caller's own)", q.name, err)
				}
			}
			lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
			if len(lines) < len(loggedQueries) {
				t.Fatalf("%d log lines, want one per call at least:\n%s", len(lines), logs.String())
			}
			limit := server.LoggedQueryLength
			if mode != server.QueryLogPrefix {
				limit = 7 // shorter runs are common words; "[query]" replaces the rest
			}
			for _, line := range lines {
				for _, q := range loggedQueries {
					if n := longestRun(line, q.query); n > limit {
						t.Errorf("a log line holds %d characters of the %s query, want at most %d:\n%s", n, q.name, limit, line)
					}
				}
				if strings.Contains(line, secret[:12]) {
					t.Errorf("a log line holds the secret:\n%s", line)
				}
				if strings.Contains(line, `"code":"Unauthenticated"`) && (strings.Contains(line, `"query`) || strings.Contains(line, "vault")) {
					t.Errorf("a refused call logged its request:\n%s", line)
				}
			}
			switch mode {
			case server.QueryLogPrefix:
				if !strings.Contains(logs.String(), `"query":"send a message to the channel`) {
					t.Errorf("prefix mode: no query prefix in the log:\n%s", logs.String())
				}
			case server.QueryLogHash:
				if !strings.Contains(logs.String(), `"query_sha256":"`) || strings.Contains(logs.String(), `"query":`) {
					t.Errorf("hash mode: want query_sha256 and no query:\n%s", logs.String())
				}
			case server.QueryLogOff:
				if strings.Contains(logs.String(), `"query`) {
					t.Errorf("off mode: the log names a query:\n%s", logs.String())
				}
			}
		})
	}
}

func TestParseQueryLogMode(t *testing.T) {
	for in, want := range map[string]server.QueryLogMode{
		"prefix": server.QueryLogPrefix, "true": server.QueryLogPrefix, "hash": server.QueryLogHash,
		"off": server.QueryLogOff, "false": server.QueryLogOff, "FALSE": server.QueryLogOff,
	} {
		if got, err := server.ParseQueryLogMode(in); err != nil || got != want {
			t.Errorf("ParseQueryLogMode(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := server.ParseQueryLogMode("sometimes"); err == nil {
		t.Error("ParseQueryLogMode(sometimes) succeeded, want an error")
	}
}

// TestLogsCarryTraceContext: a call's traceparent metadata puts its trace
// and parent IDs in the call's log line; a call without one, or with an
// invalid one, logs none.
func TestLogsCarryTraceContext(t *testing.T) {
	var logs logbuf.Buffer
	srv := server.New(server.Config{Log: slog.New(tracecontext.LogHandler(slog.NewJSONHandler(&logs, nil)))})
	srv.Ready(newEngine(t))
	addr := servertest.Serve(t, srv)
	c, err := toolsearch.Dial(addr, toolsearch.WithTimeout(testenv.HangGuard(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tests := []struct {
		name, traceparent string
		want              string // the trace_id logged; "" for none
	}{
		{"traced", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "4bf92f3577b34da6a3ce929d0e0e4736"},
		{"invalid", "00-not-a-trace", ""},
		{"untraced", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logs.Reset()
			cctx := ctx(t)
			if tt.traceparent != "" {
				cctx = metadata.AppendToOutgoingContext(cctx, "traceparent", tt.traceparent)
			}
			if _, err := c.Search(cctx, "send a message"); err != nil {
				t.Fatal(err)
			}
			line := logs.String()
			if tt.want != "" && !strings.Contains(line, `"trace_id":"`+tt.want+`","parent_id":"00f067aa0ba902b7"`) {
				t.Errorf("log %s, want trace_id %s and parent_id", line, tt.want)
			}
			if tt.want == "" && strings.Contains(line, "trace_id") {
				t.Errorf("log %s, want no trace_id", line)
			}
		})
	}
}

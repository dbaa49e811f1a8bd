package server_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/servertest"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// startLimited runs a real server whose messages may be at most limit bytes
// (0: the default, 4 MiB) over testdata/catalog.json, with a client, and
// returns its engine too.
func startLimited(t *testing.T, limit int) (*toolsearch.Client, *search.Engine) {
	t.Helper()
	srv := server.New(server.Config{Log: discardLogger(), MaxMessageSize: limit})
	e := newEngine(t)
	srv.Ready(e)
	c, err := toolsearch.Dial(servertest.Serve(t, srv), toolsearch.WithTimeout(testenv.HangGuard(t)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, e
}

// bigTools adds n tools with 60 KB descriptions to the engine's catalog
// (the case: 120 of them are 7.2 MB, over the 4 MiB limit; a
// catalog file or an MCP server can hold tools over any message limit) and
// returns their names.
func bigTools(t *testing.T, e *search.Engine, n int) []string {
	t.Helper()
	var names []string
	var batch []search.Tool
	for i := range n {
		name := fmt.Sprintf("big__tool_%03d", i)
		names = append(names, name)
		batch = append(batch, search.Tool{Name: name, Description: strings.Repeat(fmt.Sprintf("word%d ", i%10), 60_000/6)})
	}
	if _, err := e.Upsert(ctx(t), batch); err != nil {
		t.Fatal(err)
	}
	return names
}

// TestGetToolsPages: an answer over the message limit is RESOURCE_EXHAUSTED
// naming --max-message-size and the page_size that fits; with that
// page_size the pages fit, and following next_page_token returns every tool
// once, in request order.
func TestGetToolsPages(t *testing.T) {
	c, e := startLimited(t, 0)
	names := bigTools(t, e, 120)
	raw := c.Raw()

	_, err := raw.GetTools(ctx(t), &toolsearchv1.GetToolsRequest{Names: names})
	if status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "--max-message-size") {
		t.Fatalf("GetTools of 120 60 KB tools: %v, want RESOURCE_EXHAUSTED naming --max-message-size", err)
	}
	m := regexp.MustCompile(`set page_size to (\d+)`).FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("the error does not say which page_size fits: %v", err)
	}
	pageSize, _ := strconv.Atoi(m[1])
	t.Logf("suggested page_size %d: %v", pageSize, err)

	// Ask for more per page than fits: pages shrink to the limit.
	for _, ps := range []int{pageSize, 100} {
		var got []string
		tok := ""
		pages := 0
		for {
			resp, err := raw.GetTools(ctx(t), &toolsearchv1.GetToolsRequest{Names: append(names, names[0]), PageSize: int32(ps), PageToken: tok})
			if err != nil {
				t.Fatalf("page_size %d, page %d: %v", ps, pages, err)
			}
			if n := proto.Size(resp); n > server.DefaultMaxMessageSize {
				t.Errorf("page %d is %d bytes, over the limit", pages, n)
			}
			if len(resp.GetTools()) == 0 || len(resp.GetTools()) > ps {
				t.Errorf("page %d has %d tools, want 1 to %d", pages, len(resp.GetTools()), ps)
			}
			for _, tool := range resp.GetTools() {
				got = append(got, tool.GetName())
			}
			pages++
			if tok = resp.GetNextPageToken(); tok == "" {
				break
			}
		}
		if strings.Join(got, ",") != strings.Join(names, ",") {
			t.Errorf("page_size %d: %d tools over %d pages, want the 120 names once each, in order", ps, len(got), pages)
		}
		t.Logf("page_size %d: %d pages", ps, pages)
	}

	// Tokens belong to their request.
	first, err := raw.GetTools(ctx(t), &toolsearchv1.GetToolsRequest{Names: names, PageSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	for name, req := range map[string]*toolsearchv1.GetToolsRequest{
		"other names":     {Names: names[1:], PageSize: 10, PageToken: first.GetNextPageToken()},
		"other page_size": {Names: names, PageSize: 20, PageToken: first.GetNextPageToken()},
		"garbage":         {Names: names, PageSize: 10, PageToken: "not-a-token"},
		"negative size":   {Names: names, PageSize: -1},
		"size too large":  {Names: names, PageSize: server.MaxGetToolsPageSize + 1},
	} {
		if _, err := raw.GetTools(ctx(t), req); status.Code(err) != codes.InvalidArgument {
			t.Errorf("%s: %v, want INVALID_ARGUMENT", name, err)
		}
	}
}

// TestGetToolsOneToolOverLimit: a tool that alone exceeds the limit is
// RESOURCE_EXHAUSTED naming it, the flag and the size to raise it to.
func TestGetToolsOneToolOverLimit(t *testing.T) {
	c, e := startLimited(t, 32<<10)
	names := bigTools(t, e, 1)
	_, err := c.Raw().GetTools(ctx(t), &toolsearchv1.GetToolsRequest{Names: names, PageSize: 5})
	if status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), `tool "big__tool_000" alone`) || !strings.Contains(err.Error(), "raise --max-message-size") {
		t.Errorf("GetTools of a 60 KB tool with a 32 KiB limit: %v; want RESOURCE_EXHAUSTED naming the tool and --max-message-size", err)
	}
}

// TestAnswersOverLimitNameTheFlag: any answer over the limit is
// RESOURCE_EXHAUSTED naming --max-message-size and the smaller request.
func TestAnswersOverLimitNameTheFlag(t *testing.T) {
	c, _ := startLimited(t, 512)
	_, err := c.ListTools(ctx(t), "", "", 500)
	if status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "--max-message-size") || !strings.Contains(err.Error(), "lower page_size") {
		t.Errorf("ListTools of 500 with a 512-byte limit: %v; want RESOURCE_EXHAUSTED naming --max-message-size and lower page_size", err)
	}
	if _, err := c.ListTools(ctx(t), "", "", 1); err != nil {
		t.Errorf("ListTools of 1 with a 512-byte limit: %v", err)
	}
}

// TestRequestOverLimitNamesTheFlag: a request over the message limit is
// RESOURCE_EXHAUSTED naming --max-message-size and what to send instead,
// not grpc-go's "received message larger than max"; the server keeps
// serving.
func TestRequestOverLimitNamesTheFlag(t *testing.T) {
	c, _ := startLimited(t, 32<<10)
	big := &toolsearchv1.Tool{Name: "big__tool", Description: strings.Repeat("word ", 10_000)} // 50 KB
	_, err := c.Raw().UpsertTools(ctx(t), &toolsearchv1.UpsertToolsRequest{Tools: []*toolsearchv1.Tool{big}})
	if status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "--max-message-size") ||
		!strings.Contains(err.Error(), "fewer tools per call") || strings.Contains(err.Error(), "larger than max") {
		t.Errorf("UpsertTools of 50 KB with a 32 KiB limit: %v; want RESOURCE_EXHAUSTED naming --max-message-size and a smaller batch", err)
	}
	if _, err := c.Search(ctx(t), "weather"); err != nil {
		t.Errorf("Search after the refused request: %v", err)
	}
}

package server_test

import (
	"context"
	"net"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/catalog"
	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
	"github.com/toolsearch/toolsearch/server/servertest"
	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// fixture is a real server on a loopback port and a real client.
type fixture struct {
	srv    *server.Server
	client *toolsearch.Client
	addr   string
}

// start runs a server over testdata/catalog.json; ready=false leaves it
// NOT_SERVING with no engine.
func start(t *testing.T, ready bool) *fixture {
	t.Helper()
	f := &fixture{srv: server.New(server.Config{Log: discardLogger()})}
	f.addr = servertest.Serve(t, f.srv)
	if ready {
		f.srv.Ready(newEngine(t))
	}
	var err error
	if f.client, err = toolsearch.Dial(f.addr, toolsearch.WithTimeout(testenv.HangGuard(t))); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.client.Close() })
	return f
}

func newEngine(t *testing.T) *search.Engine {
	t.Helper()
	snap, err := catalog.LoadSnapshot(catalog.Source{Path: "testdata/catalog.json"})
	if err != nil {
		t.Fatal(err)
	}
	e, err := search.New(snap, search.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func ctx(t *testing.T) context.Context { return testenv.Context(t) }

func names(resp *toolsearchv1.SearchResponse) []string {
	var out []string
	for _, r := range resp.GetToolReferences() {
		out = append(out, r.GetToolName())
	}
	return out
}

func TestHealthFollowsReadiness(t *testing.T) {
	f := start(t, false)
	conn, err := grpc.NewClient(f.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	hc := healthpb.NewHealthClient(conn)
	check := func(service string) healthpb.HealthCheckResponse_ServingStatus {
		resp, err := hc.Check(ctx(t), &healthpb.HealthCheckRequest{Service: service})
		if err != nil {
			t.Fatalf("Check(%q): %v", service, err)
		}
		return resp.GetStatus()
	}
	for _, svc := range []string{"", server.ServiceName} {
		if got := check(svc); got != healthpb.HealthCheckResponse_NOT_SERVING {
			t.Errorf("before Ready, health(%q) = %v, want NOT_SERVING", svc, got)
		}
	}
	if _, err := f.client.Search(ctx(t), "slack"); status.Code(err) != codes.Unavailable {
		t.Errorf("Search before Ready: err = %v, want Unavailable", err)
	}
	f.srv.Ready(newEngine(t))
	for _, svc := range []string{"", server.ServiceName} {
		if got := check(svc); got != healthpb.HealthCheckResponse_SERVING {
			t.Errorf("after Ready, health(%q) = %v, want SERVING", svc, got)
		}
	}
	if _, err := f.client.Search(ctx(t), "slack"); err != nil {
		t.Errorf("Search after Ready: %v", err)
	}
}

func TestReflectionListsService(t *testing.T) {
	f := start(t, true)
	conn, err := grpc.NewClient(f.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	stream, err := reflectionpb.NewServerReflectionClient(conn).ServerReflectionInfo(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Send(&reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{}}); err != nil {
		t.Fatal(err)
	}
	resp, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	stream.CloseSend()
	var got []string
	for _, s := range resp.GetListServicesResponse().GetService() {
		got = append(got, s.GetName())
	}
	for _, want := range []string{server.ServiceName, "grpc.health.v1.Health"} {
		if !contains(got, want) {
			t.Errorf("reflection lists %v, want %s among them", got, want)
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestSearchModes(t *testing.T) {
	f := start(t, true)
	tests := []struct {
		name      string
		query     string
		opts      []toolsearch.SearchOption
		wantFirst string
		wantType  string
		wantNames []string // exact list when set
	}{
		{name: "keyword", query: "send slack message", opts: []toolsearch.SearchOption{toolsearch.WithSearchType(toolsearchv1.SearchType_SEARCH_TYPE_KEYWORD)}, wantFirst: "slack__send_message", wantType: "keyword"},
		{name: "default answers", query: "weather forecast", wantFirst: "weather__get_forecast"},
		{name: "regex", query: "^weather__", opts: []toolsearch.SearchOption{toolsearch.WithSearchType(toolsearchv1.SearchType_SEARCH_TYPE_REGEX)}, wantType: "regex", wantNames: []string{"weather__get_current", "weather__get_forecast"}},
		{name: "select keeps the order asked", query: "select:weather__get_current,slack__send_message", wantType: "select", wantNames: []string{"weather__get_current", "slack__send_message"}},
		{name: "exact name first", query: "`github__search_issues`", wantFirst: "github__search_issues"},
		{name: "category filter", query: "get", opts: []toolsearch.SearchOption{toolsearch.WithCategory("filesystem")}, wantType: "keyword", wantNames: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := f.client.Search(ctx(t), tt.query, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			got := names(resp)
			if tt.wantFirst != "" && (len(got) == 0 || got[0] != tt.wantFirst) {
				t.Errorf("results %v, want %s first", got, tt.wantFirst)
			}
			if tt.wantNames != nil {
				if diff := cmp.Diff(tt.wantNames, got); diff != "" {
					t.Errorf("results (-want +got):\n%s", diff)
				}
			}
			md := resp.GetSearchMetadata()
			if tt.wantType != "" && md.GetSearchType() != tt.wantType {
				t.Errorf("search_type = %q, want %q", md.GetSearchType(), tt.wantType)
			}
			if md.GetQuery() != tt.query || md.GetCatalogVersion() != 1 {
				t.Errorf("metadata = %v, want query %q and catalog version 1", md, tt.query)
			}
			refs := resp.GetToolReferences()
			for i, r := range refs {
				if s := r.GetRelevanceScore(); s < 0 || s > 1 {
					t.Errorf("%s: score %v outside [0,1]", r.GetToolName(), s)
				}
				if i > 0 && md.GetSearchType() != "select" && refs[i-1].GetRelevanceScore() < r.GetRelevanceScore() {
					t.Errorf("results not sorted by score: %v", refs)
				}
				if r.GetSummary() == "" {
					t.Errorf("%s: empty summary", r.GetToolName())
				}
			}
		})
	}
}

func TestCategoryFilterScopes(t *testing.T) {
	f := start(t, true)
	resp, err := f.client.Search(ctx(t), "file", toolsearch.WithCategory("filesystem"), toolsearch.WithSearchType(toolsearchv1.SearchType_SEARCH_TYPE_KEYWORD))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names(resp) {
		if !strings.HasPrefix(n, "filesystem__") {
			t.Errorf("category filesystem returned %s", n)
		}
	}
	if len(names(resp)) == 0 {
		t.Error("category filesystem returned nothing for \"file\"")
	}
}

func TestVisibleToolsNeverLeak(t *testing.T) {
	f := start(t, true)
	visible := []string{"slack:*", "weather__get_current"}
	allowed := func(n string) bool { return strings.HasPrefix(n, "slack__") || n == "weather__get_current" }
	for _, q := range []string{"send message", "weather forecast", "select:weather__get_forecast,slack__list_channels", "", "github issue"} {
		for _, st := range []toolsearchv1.SearchType{toolsearchv1.SearchType_SEARCH_TYPE_UNSPECIFIED, toolsearchv1.SearchType_SEARCH_TYPE_KEYWORD} {
			resp, err := f.client.Search(ctx(t), q, toolsearch.WithVisibleTools(visible...), toolsearch.WithSearchType(st), toolsearch.WithMaxResults(10))
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range append(names(resp), resp.GetAvailableTools()...) {
				if !allowed(n) {
					t.Errorf("query %q (%v) returned %s outside the visible set", q, st, n)
				}
			}
		}
	}
	resp, err := f.client.Search(ctx(t), "^.*$", toolsearch.WithVisibleTools(visible...), toolsearch.WithSearchType(toolsearchv1.SearchType_SEARCH_TYPE_REGEX), toolsearch.WithMaxResults(10))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"slack__list_channels", "slack__send_message", "weather__get_current"}
	got := names(resp)
	sort.Strings(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("regex .* under visible set (-want +got):\n%s", diff)
	}
}

func TestBadInput(t *testing.T) {
	f := start(t, true)
	regex := toolsearch.WithSearchType(toolsearchv1.SearchType_SEARCH_TYPE_REGEX)
	tests := []struct {
		name     string
		call     func() error
		code     codes.Code
		contains string
	}{
		{"invalid regex", func() error { _, err := f.client.Search(ctx(t), "foo(", regex); return err }, codes.InvalidArgument, "missing closing )"},
		{"regex too long", func() error { _, err := f.client.Search(ctx(t), strings.Repeat("a", 201), regex); return err }, codes.InvalidArgument, "200"},
		{"query too long", func() error { _, err := f.client.Search(ctx(t), strings.Repeat("word ", 1000)); return err }, codes.InvalidArgument, "limit is 4096"},
		{"negative max_results", func() error { _, err := f.client.Search(ctx(t), "slack", toolsearch.WithMaxResults(-1)); return err }, codes.InvalidArgument, "max_results is -1"},
		{"unknown search type", func() error {
			_, err := f.client.Raw().Search(ctx(t), &toolsearchv1.SearchRequest{Query: "x", SearchType: 99})
			return err
		}, codes.InvalidArgument, "search_type 99"},
		{"bad page token", func() error { _, err := f.client.Search(ctx(t), "", toolsearch.WithPageToken("nonsense!")); return err }, codes.InvalidArgument, "page token"},
		{"bad visible pattern", func() error { _, err := f.client.Search(ctx(t), "x", toolsearch.WithVisibleTools("sl*ck")); return err }, codes.InvalidArgument, "'*' may only end"},
		{"unknown tools in GetTools", func() error { _, err := f.client.GetTools(ctx(t), "slack__send_message", "nope", "nada"); return err }, codes.NotFound, "nada"},
		{"GetTools with no names", func() error { _, err := f.client.GetTools(ctx(t)); return err }, codes.InvalidArgument, "no tool names"},
		{"unknown tools in DeleteTools", func() error { _, err := f.client.DeleteTools(ctx(t), "ghost"); return err }, codes.NotFound, "ghost"},
		{"duplicate tools in UpsertTools", func() error {
			_, err := f.client.UpsertTools(ctx(t), &toolsearchv1.Tool{Name: "a", Description: "x"}, &toolsearchv1.Tool{Name: "a", Description: "y"})
			return err
		}, codes.InvalidArgument, "duplicate"},
		{"invalid schema JSON in UpsertTools", func() error {
			_, err := f.client.UpsertTools(ctx(t), &toolsearchv1.Tool{Name: "b", InputSchema: "{not json"})
			return err
		}, codes.InvalidArgument, "not valid JSON"},
		{"schema nested too deep in UpsertTools", func() error {
			deep := strings.Repeat(`{"a":[`, 5001) + strings.Repeat(`]}`, 5001)
			_, err := f.client.UpsertTools(ctx(t), &toolsearchv1.Tool{Name: "b", InputSchema: deep})
			return err
		}, codes.InvalidArgument, "input_schema is nested more than 10000 levels deep"},
		{"non-object schema in UpsertTools", func() error {
			_, err := f.client.UpsertTools(ctx(t), &toolsearchv1.Tool{Name: "b", InputSchema: `"string"`})
			return err
		}, codes.InvalidArgument, "b"},
		{"negative page size", func() error { _, err := f.client.ListTools(ctx(t), "", "", -5); return err }, codes.InvalidArgument, "page_size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if status.Code(err) != tt.code || !strings.Contains(status.Convert(err).Message(), tt.contains) {
				t.Errorf("err = %v, want %v containing %q", err, tt.code, tt.contains)
			}
		})
	}
	// The sidecar keeps serving, and nothing was changed.
	info, err := f.client.CatalogInfo(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if info.GetCatalogVersion() != 1 || info.GetToolCount() != 8 {
		t.Errorf("after bad input: version %d, %d tools; want version 1, 8 tools", info.GetCatalogVersion(), info.GetToolCount())
	}
}

func TestMaxResultsClampedToCap(t *testing.T) {
	f := start(t, true)
	resp, err := f.client.Search(ctx(t), "", toolsearch.WithMaxResults(1000))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(resp.GetToolReferences()); got != 8 {
		t.Errorf("browse with max_results 1000 returned %d, want all 8 (cap 10)", got)
	}
	resp, err = f.client.Search(ctx(t), "")
	if err != nil {
		t.Fatal(err)
	}
	if got := len(resp.GetToolReferences()); got != search.DefaultMaxResults {
		t.Errorf("browse with default max_results returned %d, want %d", got, search.DefaultMaxResults)
	}
}

func TestCatalogChanges(t *testing.T) {
	f := start(t, true)
	up, err := f.client.UpsertTools(ctx(t),
		&toolsearchv1.Tool{Name: "calendar__create_event", Server: "calendar", Description: "Create a calendar event with attendees.", InputSchema: `{"type":"object","properties":{"title":{"type":"string"}}}`},
		&toolsearchv1.Tool{Name: "slack__send_message", Server: "slack", Description: "Post a message to a Slack channel."},
	)
	if err != nil {
		t.Fatal(err)
	}
	if up.GetCatalogVersion() != 2 || up.GetInserted() != 1 || up.GetUpdated() != 1 || up.GetToolCount() != 9 {
		t.Errorf("upsert = %v, want version 2, 1 inserted, 1 updated, 9 tools", up)
	}
	resp, err := f.client.Search(ctx(t), "calendar event", toolsearch.WithSearchType(toolsearchv1.SearchType_SEARCH_TYPE_KEYWORD))
	if err != nil {
		t.Fatal(err)
	}
	if got := names(resp); len(got) == 0 || got[0] != "calendar__create_event" || resp.GetSearchMetadata().GetCatalogVersion() != 2 {
		t.Errorf("after upsert: %v (version %d), want calendar__create_event first at version 2", got, resp.GetSearchMetadata().GetCatalogVersion())
	}
	tools, err := f.client.GetTools(ctx(t), "calendar__create_event")
	if err != nil {
		t.Fatal(err)
	}
	if tools[0].GetDescription() != "Create a calendar event with attendees." || !strings.Contains(tools[0].GetInputSchema(), `"title"`) {
		t.Errorf("GetTools = %v", tools[0])
	}
	del, err := f.client.DeleteTools(ctx(t), "calendar__create_event")
	if err != nil {
		t.Fatal(err)
	}
	if del.GetCatalogVersion() != 3 || del.GetDeleted() != 1 || del.GetToolCount() != 8 {
		t.Errorf("delete = %v, want version 3, 1 deleted, 8 tools", del)
	}
	if _, err := f.client.GetTools(ctx(t), "calendar__create_event"); status.Code(err) != codes.NotFound {
		t.Errorf("GetTools after delete: %v, want NotFound", err)
	}
}

func TestListToolsPages(t *testing.T) {
	f := start(t, true)
	var got []string
	token := ""
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("paging does not end")
		}
		resp, err := f.client.ListTools(ctx(t), "", token, 3)
		if err != nil {
			t.Fatal(err)
		}
		if resp.GetTotalSize() != 8 {
			t.Errorf("total_size = %d, want 8", resp.GetTotalSize())
		}
		for _, tool := range resp.GetTools() {
			got = append(got, tool.GetName())
		}
		if token = resp.GetNextPageToken(); token == "" {
			break
		}
	}
	if len(got) != 8 || !sort.StringsAreSorted(got) {
		t.Errorf("pages gave %v, want all 8 tools in name order", got)
	}
	resp, err := f.client.ListTools(ctx(t), "WEATHER", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetTotalSize() != 2 {
		t.Errorf("server filter weather: %d tools, want 2", resp.GetTotalSize())
	}
}

func TestNoMatchHint(t *testing.T) {
	f := start(t, true)
	resp, err := f.client.Search(ctx(t), "zzqx vvbn", toolsearch.WithSearchType(toolsearchv1.SearchType_SEARCH_TYPE_KEYWORD))
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.GetToolReferences()) != 0 || resp.GetHint() == "" || len(resp.GetAvailableTools()) != 8 {
		t.Errorf("no match: refs %v, hint %q, available %v; want no refs, a hint and all 8 names", names(resp), resp.GetHint(), resp.GetAvailableTools())
	}
}

func TestSearchesDuringUpserts(t *testing.T) {
	f := start(t, true)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := f.client.Search(ctx(t), "weather")
				if err != nil {
					t.Error(err)
					return
				}
				if len(resp.GetToolReferences()) == 0 {
					t.Error("search during upserts found nothing")
					return
				}
			}
		}()
	}
	for i := range 20 {
		desc := "Get the current weather conditions for a location, revision " + string(rune('a'+i))
		if _, err := f.client.UpsertTools(ctx(t), &toolsearchv1.Tool{Name: "weather__get_current", Server: "weather", Description: desc}); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
}

func TestShutdownReportsNotServing(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Log: discardLogger()})
	srv.Ready(newEngine(t))
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	if !srv.Shutdown(ctx(t)) {
		t.Error("Shutdown with no calls in flight was not graceful")
	}
	if err := <-served; err != nil {
		t.Errorf("Serve after Shutdown: %v", err)
	}
}

package toolsearch

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
)

// recorder is a minimal ToolSearchService that records what it receives and
// answers with canned responses. It tests the client's wiring, not search.
type recorder struct {
	toolsearchv1.UnimplementedToolSearchServiceServer

	mu       sync.Mutex
	req      proto.Message // the last request
	md       metadata.MD   // the last request's metadata
	deadline time.Duration // time left on the last request's deadline; 0: none
}

func (r *recorder) record(ctx context.Context, req proto.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.req = req
	r.md, _ = metadata.FromIncomingContext(ctx)
	r.deadline = 0
	if d, ok := ctx.Deadline(); ok {
		r.deadline = time.Until(d)
	}
}

func (r *recorder) last() (proto.Message, metadata.MD, time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.req, r.md, r.deadline
}

func (r *recorder) Search(ctx context.Context, req *toolsearchv1.SearchRequest) (*toolsearchv1.SearchResponse, error) {
	r.record(ctx, req)
	return &toolsearchv1.SearchResponse{TotalMatches: 1, ToolReferences: []*toolsearchv1.ToolReference{{ToolName: "a"}}}, nil
}

func (r *recorder) GetTools(ctx context.Context, req *toolsearchv1.GetToolsRequest) (*toolsearchv1.GetToolsResponse, error) {
	r.record(ctx, req)
	var tools []*toolsearchv1.Tool
	for _, n := range req.GetNames() {
		if n == "missing" {
			return nil, status.Error(codes.NotFound, "unknown tools: missing")
		}
		tools = append(tools, &toolsearchv1.Tool{Name: n})
	}
	return &toolsearchv1.GetToolsResponse{Tools: tools}, nil
}

func (r *recorder) ListTools(ctx context.Context, req *toolsearchv1.ListToolsRequest) (*toolsearchv1.ListToolsResponse, error) {
	r.record(ctx, req)
	return &toolsearchv1.ListToolsResponse{NextPageToken: "next"}, nil
}

func (r *recorder) UpsertTools(ctx context.Context, req *toolsearchv1.UpsertToolsRequest) (*toolsearchv1.UpsertToolsResponse, error) {
	r.record(ctx, req)
	return &toolsearchv1.UpsertToolsResponse{Inserted: int32(len(req.GetTools()))}, nil
}

func (r *recorder) DeleteTools(ctx context.Context, req *toolsearchv1.DeleteToolsRequest) (*toolsearchv1.DeleteToolsResponse, error) {
	r.record(ctx, req)
	return &toolsearchv1.DeleteToolsResponse{Deleted: int32(len(req.GetNames()))}, nil
}

func (r *recorder) GetCatalogInfo(ctx context.Context, req *toolsearchv1.GetCatalogInfoRequest) (*toolsearchv1.GetCatalogInfoResponse, error) {
	r.record(ctx, req)
	return &toolsearchv1.GetCatalogInfoResponse{ToolCount: 3, IndexState: toolsearchv1.IndexState_INDEX_STATE_READY}, nil
}

// fixture is an in-process sidecar over bufconn.
type fixture struct {
	rec    *recorder
	health *health.Server
	lis    *bufconn.Listener
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{rec: &recorder{}, health: health.NewServer(), lis: bufconn.Listen(1 << 20)}
	srv := grpc.NewServer()
	toolsearchv1.RegisterToolSearchServiceServer(srv, f.rec)
	healthpb.RegisterHealthServer(srv, f.health)
	go func() { _ = srv.Serve(f.lis) }()
	t.Cleanup(srv.Stop)
	return f
}

// dial returns a Client over the fixture's bufconn listener.
func (f *fixture) dial(t *testing.T, opts ...Option) *Client {
	t.Helper()
	dialer := grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
		return f.lis.DialContext(ctx)
	})
	c, err := Dial("passthrough:///bufnet", append([]Option{WithDialOptions(dialer)}, opts...)...)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestSearchOptions(t *testing.T) {
	tests := []struct {
		name  string
		query string
		opts  []SearchOption
		want  *toolsearchv1.SearchRequest
	}{
		{
			name:  "defaults",
			query: "send slack message",
			want:  &toolsearchv1.SearchRequest{Query: "send slack message"},
		},
		{
			name:  "every option",
			query: "create issue",
			opts: []SearchOption{
				WithSearchType(toolsearchv1.SearchType_SEARCH_TYPE_KEYWORD),
				WithMaxResults(7),
				WithCategory("GitHub"),
				WithVisibleTools("github:*"),
				WithVisibleTools("slack__send_message", "jira__create_ticket"),
				WithSessionID("sess-1"),
				WithDebug(),
				WithPageToken("tok"),
				nil,
			},
			want: &toolsearchv1.SearchRequest{
				Query:          "create issue",
				SearchType:     toolsearchv1.SearchType_SEARCH_TYPE_KEYWORD,
				MaxResults:     7,
				CategoryFilter: "GitHub",
				VisibleTools:   []string{"github:*", "slack__send_message", "jira__create_ticket"},
				SessionId:      "sess-1",
				Debug:          true,
				PageToken:      "tok",
			},
		},
		{
			name:  "max results saturate instead of wrapping",
			query: "q",
			opts:  []SearchOption{WithMaxResults(1 << 40)},
			want:  &toolsearchv1.SearchRequest{Query: "q", MaxResults: 1<<31 - 1},
		},
		{
			name:  "negative max results reach the sidecar",
			query: "q",
			opts:  []SearchOption{WithMaxResults(-1)},
			want:  &toolsearchv1.SearchRequest{Query: "q", MaxResults: -1},
		},
	}
	f := newFixture(t)
	c := f.dial(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := c.Search(t.Context(), tt.query, tt.opts...)
			if err != nil {
				t.Fatalf("Search: %v", err)
			}
			if got := resp.GetToolReferences()[0].GetToolName(); got != "a" {
				t.Errorf("Search response tool = %q, want %q", got, "a")
			}
			got, _, _ := f.rec.last()
			if diff := cmp.Diff(tt.want, got, protocmp.Transform()); diff != "" {
				t.Errorf("request mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMethodsSendRequests(t *testing.T) {
	f := newFixture(t)
	c := f.dial(t)
	ctx := t.Context()

	tools, err := c.GetTools(ctx, "a", "b")
	if err != nil {
		t.Fatalf("GetTools: %v", err)
	}
	if diff := cmp.Diff([]*toolsearchv1.Tool{{Name: "a"}, {Name: "b"}}, tools, protocmp.Transform()); diff != "" {
		t.Errorf("GetTools mismatch (-want +got):\n%s", diff)
	}

	if _, err := c.GetTools(ctx, "a", "missing"); status.Code(err) != codes.NotFound {
		t.Errorf("GetTools(missing) error = %v, want code NotFound", err)
	}

	page, err := c.ListTools(ctx, "slack", "p1", 20)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	if page.GetNextPageToken() != "next" {
		t.Errorf("ListTools next page token = %q, want %q", page.GetNextPageToken(), "next")
	}
	req, _, _ := f.rec.last()
	if diff := cmp.Diff(&toolsearchv1.ListToolsRequest{Server: "slack", PageToken: "p1", PageSize: 20}, req, protocmp.Transform()); diff != "" {
		t.Errorf("ListTools request mismatch (-want +got):\n%s", diff)
	}

	up, err := c.UpsertTools(ctx, &toolsearchv1.Tool{Name: "x", InputSchema: `{"type":"object"}`})
	if err != nil || up.GetInserted() != 1 {
		t.Fatalf("UpsertTools = %v, %v; want 1 inserted", up, err)
	}
	req, _, _ = f.rec.last()
	if diff := cmp.Diff(&toolsearchv1.UpsertToolsRequest{Tools: []*toolsearchv1.Tool{{Name: "x", InputSchema: `{"type":"object"}`}}}, req, protocmp.Transform()); diff != "" {
		t.Errorf("UpsertTools request mismatch (-want +got):\n%s", diff)
	}

	del, err := c.DeleteTools(ctx, "x", "y")
	if err != nil || del.GetDeleted() != 2 {
		t.Fatalf("DeleteTools = %v, %v; want 2 deleted", del, err)
	}

	info, err := c.CatalogInfo(ctx)
	if err != nil {
		t.Fatalf("CatalogInfo: %v", err)
	}
	if info.GetToolCount() != 3 || info.GetIndexState() != toolsearchv1.IndexState_INDEX_STATE_READY {
		t.Errorf("CatalogInfo = %v, want 3 tools, READY", info)
	}

	// Raw goes through the same connection.
	if _, err := c.Raw().GetCatalogInfo(ctx, &toolsearchv1.GetCatalogInfoRequest{}); err != nil {
		t.Errorf("Raw().GetCatalogInfo: %v", err)
	}
}

func TestTimeout(t *testing.T) {
	tests := []struct {
		name        string
		opts        []Option
		ctxDeadline time.Duration // 0: the caller's context has no deadline
		wantMin     time.Duration // 0 with wantMax 0: no deadline expected
		wantMax     time.Duration
	}{
		{name: "default timeout", wantMin: DefaultTimeout - time.Second, wantMax: DefaultTimeout},
		{name: "WithTimeout", opts: []Option{WithTimeout(30 * time.Second)}, wantMin: 29 * time.Second, wantMax: 30 * time.Second},
		{name: "WithTimeout(0) disables it", opts: []Option{WithTimeout(0)}},
		{name: "caller deadline wins", opts: []Option{WithTimeout(time.Second)}, ctxDeadline: time.Minute, wantMin: 59 * time.Second, wantMax: time.Minute},
	}
	f := newFixture(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := f.dial(t, tt.opts...)
			ctx := t.Context()
			if tt.ctxDeadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.ctxDeadline)
				defer cancel()
			}
			for name, call := range map[string]func() error{
				"Search": func() error { _, err := c.Search(ctx, "q"); return err },
				"Raw":    func() error { _, err := c.Raw().Search(ctx, &toolsearchv1.SearchRequest{}); return err },
			} {
				if err := call(); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				_, _, left := f.rec.last()
				if left < tt.wantMin || left > tt.wantMax {
					t.Errorf("%s: server saw %v left on the deadline, want between %v and %v (0: none)", name, left, tt.wantMin, tt.wantMax)
				}
			}
		})
	}
}

func TestBearerToken(t *testing.T) {
	tests := []struct {
		name  string
		opts  []Option
		ctxMD metadata.MD // outgoing metadata the caller set
		want  []string
	}{
		{name: "none"},
		{name: "WithBearerToken", opts: []Option{WithBearerToken("s3cret")}, want: []string{"Bearer s3cret"}},
		{name: "empty token sends nothing", opts: []Option{WithBearerToken("")}},
		{name: "caller's own authorization wins", opts: []Option{WithBearerToken("s3cret")}, ctxMD: metadata.Pairs("authorization", "Basic abc"), want: []string{"Basic abc"}},
	}
	f := newFixture(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := f.dial(t, tt.opts...)
			ctx := t.Context()
			if tt.ctxMD != nil {
				ctx = metadata.NewOutgoingContext(ctx, tt.ctxMD)
			}
			if _, err := c.GetTools(ctx, "a"); err != nil {
				t.Fatalf("GetTools: %v", err)
			}
			_, md, _ := f.rec.last()
			if diff := cmp.Diff(tt.want, md.Get("authorization")); diff != "" {
				t.Errorf("authorization metadata mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHealth(t *testing.T) {
	f := newFixture(t)
	c := f.dial(t)
	for _, tt := range []struct {
		status healthpb.HealthCheckResponse_ServingStatus
		want   bool
	}{
		{healthpb.HealthCheckResponse_NOT_SERVING, false},
		{healthpb.HealthCheckResponse_SERVING, true},
	} {
		f.health.SetServingStatus("", tt.status)
		got, err := c.Health(t.Context())
		if err != nil {
			t.Fatalf("Health with status %v: %v", tt.status, err)
		}
		if got != tt.want {
			t.Errorf("Health with status %v = %v, want %v", tt.status, got, tt.want)
		}
	}
}

func TestHealthUnreachable(t *testing.T) {
	lis := bufconn.Listen(1 << 10)
	_ = lis.Close() // nothing listens
	c, err := Dial("passthrough:///bufnet", WithTimeout(time.Second), WithDialOptions(grpc.WithContextDialer(
		func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) })))
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer c.Close()
	ok, err := c.Health(t.Context())
	if ok || status.Code(err) != codes.Unavailable {
		t.Errorf("Health = %v, %v; want false, code Unavailable", ok, err)
	}
}

func TestNewFromConn(t *testing.T) {
	f := newFixture(t)
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return f.lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatalf("grpc.NewClient: %v", err)
	}
	defer conn.Close()

	c := NewFromConn(conn, WithBearerToken("tok"))
	if _, err := c.Search(t.Context(), "q"); err != nil {
		t.Fatalf("Search: %v", err)
	}
	_, md, left := f.rec.last()
	if got := md.Get("authorization"); len(got) != 1 || got[0] != "Bearer tok" {
		t.Errorf("authorization metadata = %q, want [Bearer tok]", got)
	}
	if left <= 0 {
		t.Errorf("no default timeout applied through NewFromConn")
	}
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	// The caller's connection is still open.
	if _, err := c.Search(t.Context(), "q"); err != nil {
		t.Errorf("Search after Close of a NewFromConn client: %v (the caller owns the connection)", err)
	}
}

func TestDialEmptyTarget(t *testing.T) {
	if c, err := Dial(""); err == nil {
		_ = c.Close()
		t.Fatal("Dial(\"\") succeeded, want an error")
	}
}

func TestCloseClosesDialedConn(t *testing.T) {
	f := newFixture(t)
	c := f.dial(t)
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := c.Search(t.Context(), "q"); status.Code(err) != codes.Canceled {
		t.Errorf("Search after Close error = %v, want code Canceled", err)
	}
}

func TestConcurrentUse(t *testing.T) {
	f := newFixture(t)
	c := f.dial(t, WithBearerToken("tok"))
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Go(func() {
			if _, err := c.Search(t.Context(), "q", WithMaxResults(i%10+1)); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent Search: %v", err)
	}
}

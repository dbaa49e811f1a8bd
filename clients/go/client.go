package toolsearch

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
)

// Client calls a toolsearch sidecar. Create it with [Dial] or [NewFromConn].
// It is safe for concurrent use by multiple goroutines.
type Client struct {
	conn   *grpc.ClientConn // owned by the Client; nil after NewFromConn
	raw    toolsearchv1.ToolSearchServiceClient
	health healthpb.HealthClient
}

// Dial creates a client for the sidecar at target (e.g. "127.0.0.1:50051",
// or any target grpc.NewClient accepts). Like grpc.NewClient it does not
// connect: the connection is made on the first call, and a sidecar that is
// not running shows up as an UNAVAILABLE error from that call (use
// [Client.Health] to check). The transport is insecure unless
// [WithTransportCredentials] or [WithDialOptions] says otherwise. Close the
// client when done.
func Dial(target string, opts ...Option) (*Client, error) {
	if target == "" {
		return nil, errors.New("toolsearch: empty target: want the sidecar address, e.g. 127.0.0.1:50051")
	}
	o := newOptions(opts)
	creds := o.creds
	if creds == nil {
		creds = insecure.NewCredentials()
	}
	dialOpts := append([]grpc.DialOption{grpc.WithTransportCredentials(creds)}, o.dialOpts...)
	conn, err := grpc.NewClient(target, dialOpts...)
	if err != nil {
		return nil, fmt.Errorf("toolsearch: dial %s: %w", target, err)
	}
	c := newClient(conn, o)
	c.conn = conn
	return c, nil
}

// NewFromConn creates a client that calls the sidecar through conn, a
// connection the caller created and owns: [Client.Close] does not close it.
// Transport options ([WithDialOptions], [WithTransportCredentials]) do not
// apply; [WithTimeout] and [WithBearerToken] do.
func NewFromConn(conn grpc.ClientConnInterface, opts ...Option) *Client {
	return newClient(conn, newOptions(opts))
}

func newClient(conn grpc.ClientConnInterface, o options) *Client {
	cc := &callConn{ClientConnInterface: conn, opts: o}
	return &Client{
		raw:    toolsearchv1.NewToolSearchServiceClient(cc),
		health: healthpb.NewHealthClient(cc),
	}
}

// Raw returns the generated client, for requests the wrapper's methods do not
// cover. Its calls get the client's default timeout and bearer token too.
func (c *Client) Raw() toolsearchv1.ToolSearchServiceClient { return c.raw }

// Close closes the connection that [Dial] opened; calls in flight fail with
// CANCELED. For a client from [NewFromConn] it does nothing: the caller owns
// the connection. Close the client once; later calls return an error.
func (c *Client) Close() error {
	if c.conn == nil {
		return nil
	}
	return c.conn.Close()
}

// Search searches the catalog for tools matching query. See the SearchOption
// functions (WithSearchType, WithMaxResults, …) for the request's other
// fields; the empty query browses the catalog. Pass the response to
// [RenderResult] to get the JSON for the model.
func (c *Client) Search(ctx context.Context, query string, opts ...SearchOption) (*toolsearchv1.SearchResponse, error) {
	req := &toolsearchv1.SearchRequest{Query: query}
	for _, opt := range opts {
		if opt != nil {
			opt(req)
		}
	}
	return c.raw.Search(ctx, req)
}

// GetTools returns the full definitions of the named tools, in the order
// asked. If any name is unknown the call fails with NOT_FOUND, and the error
// message lists the unknown names.
func (c *Client) GetTools(ctx context.Context, names ...string) ([]*toolsearchv1.Tool, error) {
	resp, err := c.raw.GetTools(ctx, &toolsearchv1.GetToolsRequest{Names: names})
	if err != nil {
		return nil, err
	}
	return resp.GetTools(), nil
}

// ListTools returns one page of tool names and summaries, in name order.
// server restricts the list to one server ("" for all); pageToken is the
// NextPageToken of the previous page ("" for the first); pageSize is the
// page length (0 for the sidecar's default, 50; at most 500).
func (c *Client) ListTools(ctx context.Context, server, pageToken string, pageSize int) (*toolsearchv1.ListToolsResponse, error) {
	return c.raw.ListTools(ctx, &toolsearchv1.ListToolsRequest{
		PageSize:  clampInt32(pageSize),
		PageToken: pageToken,
		Server:    server,
	})
}

// UpsertTools inserts the tools, replacing existing tools of the same names,
// all or nothing: on INVALID_ARGUMENT (a duplicate or invalid tool) the
// catalog is unchanged.
func (c *Client) UpsertTools(ctx context.Context, tools ...*toolsearchv1.Tool) (*toolsearchv1.UpsertToolsResponse, error) {
	return c.raw.UpsertTools(ctx, &toolsearchv1.UpsertToolsRequest{Tools: tools})
}

// DeleteTools removes the named tools, all or nothing: on NOT_FOUND (an
// unknown name) the catalog is unchanged.
func (c *Client) DeleteTools(ctx context.Context, names ...string) (*toolsearchv1.DeleteToolsResponse, error) {
	return c.raw.DeleteTools(ctx, &toolsearchv1.DeleteToolsRequest{Names: names})
}

// CatalogInfo describes the sidecar's catalog and search index: tool count,
// version, embedder, index state, servers and the max_results cap.
func (c *Client) CatalogInfo(ctx context.Context) (*toolsearchv1.GetCatalogInfoResponse, error) {
	return c.raw.GetCatalogInfo(ctx, &toolsearchv1.GetCatalogInfoRequest{})
}

// ReportToolUse tells the sidecar that the model of session called tool,
// with outcome; a sidecar started with --learn learns from it (see
// [Agent.ToolCalled], which calls it for an agent loop). The response says
// whether the use taught anything, and if not why.
func (c *Client) ReportToolUse(ctx context.Context, session, tool string, outcome toolsearchv1.ToolUseOutcome) (*toolsearchv1.ReportToolUseResponse, error) {
	return c.raw.ReportToolUse(ctx, &toolsearchv1.ReportToolUseRequest{SessionId: session, ToolName: tool, Outcome: outcome})
}

// Health reports whether the sidecar is serving, through the standard gRPC
// health service (grpc.health.v1, overall server status ""). It returns true
// only for SERVING; false with a nil error for any other status (e.g.
// NOT_SERVING while the catalog loads or during shutdown); and an error when
// the check itself fails (e.g. UNAVAILABLE: no sidecar at the address).
func (c *Client) Health(ctx context.Context) (bool, error) {
	resp, err := c.health.Check(ctx, &healthpb.HealthCheckRequest{})
	if err != nil {
		return false, err
	}
	return resp.GetStatus() == healthpb.HealthCheckResponse_SERVING, nil
}

// callConn applies the client's per-call options to every call made through
// it, whether by the Client's methods or through Raw.
type callConn struct {
	grpc.ClientConnInterface
	opts options
}

// Invoke adds the bearer token and, when ctx has no deadline, the default
// timeout.
func (c *callConn) Invoke(ctx context.Context, method string, args, reply any, opts ...grpc.CallOption) error {
	ctx = c.withToken(ctx)
	if _, ok := ctx.Deadline(); !ok && c.opts.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.opts.timeout)
		defer cancel()
	}
	return c.ClientConnInterface.Invoke(ctx, method, args, reply, opts...)
}

// NewStream adds the bearer token. Streams get no default timeout: they
// live as long as the caller's context.
func (c *callConn) NewStream(ctx context.Context, desc *grpc.StreamDesc, method string, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	return c.ClientConnInterface.NewStream(c.withToken(ctx), desc, method, opts...)
}

// withToken adds the authorization metadata, unless the caller's context
// already carries its own.
func (c *callConn) withToken(ctx context.Context) context.Context {
	if c.opts.token == "" {
		return ctx
	}
	if md, ok := metadata.FromOutgoingContext(ctx); ok && len(md.Get("authorization")) > 0 {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+c.opts.token)
}

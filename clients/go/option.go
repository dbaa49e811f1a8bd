package toolsearch

import (
	"math"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
)

// DefaultTimeout is the per-call timeout that a [Client] applies when the
// caller's context has no deadline. Change it with [WithTimeout].
const DefaultTimeout = 5 * time.Second

// An Option configures a [Client] in [Dial] or [NewFromConn].
type Option func(*options)

// options holds the configuration built from Options.
type options struct {
	dialOpts []grpc.DialOption
	creds    credentials.TransportCredentials // nil: insecure
	timeout  time.Duration                    // <= 0: none
	token    string                           // "": no authorization metadata
}

func newOptions(opts []Option) options {
	o := options{timeout: DefaultTimeout}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return o
}

// WithDialOptions adds gRPC dial options for [Dial], after the client's own
// (so, for example, a grpc.WithTransportCredentials here takes precedence over
// [WithTransportCredentials]). Ignored by [NewFromConn]. Options accumulate
// over several calls.
func WithDialOptions(opts ...grpc.DialOption) Option {
	return func(o *options) { o.dialOpts = append(o.dialOpts, opts...) }
}

// WithTransportCredentials sets the transport security for [Dial], e.g.
// credentials.NewTLS(cfg). The default is insecure (plaintext), since the
// sidecar normally listens on loopback next to the agent. Ignored by
// [NewFromConn].
func WithTransportCredentials(creds credentials.TransportCredentials) Option {
	return func(o *options) { o.creds = creds }
}

// WithTimeout sets the timeout applied to each unary call whose context has
// no deadline; a context that already has a deadline is left alone. The
// default is [DefaultTimeout] (5 s); d <= 0 disables the default timeout.
func WithTimeout(d time.Duration) Option {
	return func(o *options) { o.timeout = d }
}

// WithBearerToken sends the metadata "authorization: Bearer <token>" with
// every call, including calls made through [Client.Raw]. An empty token sends
// nothing; a context that already carries authorization metadata keeps its own. Over the default insecure transport the token travels in clear
// text: fine on loopback, use [WithTransportCredentials] otherwise.
func WithBearerToken(token string) Option {
	return func(o *options) { o.token = token }
}

// A SearchOption sets a field of the request built by [Client.Search].
type SearchOption func(*toolsearchv1.SearchRequest)

// WithSearchType selects the search mode. The default,
// SEARCH_TYPE_UNSPECIFIED, is semantic search with a confidence-gated fallback
// to keyword search.
func WithSearchType(t toolsearchv1.SearchType) SearchOption {
	return func(r *toolsearchv1.SearchRequest) { r.SearchType = t }
}

// WithMaxResults sets the maximum number of tool references to return. 0
// means the sidecar's default (5); negative values and values above the
// sidecar's cap (default 10, see [Client.CatalogInfo]) are rejected by the
// sidecar with INVALID_ARGUMENT.
func WithMaxResults(n int) SearchOption {
	return func(r *toolsearchv1.SearchRequest) { r.MaxResults = clampInt32(n) }
}

// WithCategory restricts results to one server or category, matched exactly
// and case-insensitively.
func WithCategory(category string) SearchOption {
	return func(r *toolsearchv1.SearchRequest) { r.CategoryFilter = category }
}

// WithVisibleTools restricts results to the tools visible to this agent or
// turn: exact tool names, "server:*", "category:NAME" or "prefix*"
// patterns. Nothing outside the set is
// returned. Calls accumulate; no names (the default) means all tools.
func WithVisibleTools(names ...string) SearchOption {
	return func(r *toolsearchv1.SearchRequest) { r.VisibleTools = append(r.VisibleTools, names...) }
}

// WithSessionID sets the agent session identifier (at most 256 bytes): the
// tools the search returns are revealed to that session, and are in its
// next toolset ([Agent.Tools]). [Agent.HandleToolCall] sets it for you.
func WithSessionID(id string) SearchOption {
	return func(r *toolsearchv1.SearchRequest) { r.SessionId = id }
}

// WithDebug asks the sidecar to explain how each tool was scored, in
// ToolReference.explanation. Meant for humans; [RenderResult] leaves the
// explanations out.
func WithDebug() SearchOption {
	return func(r *toolsearchv1.SearchRequest) { r.Debug = true }
}

// WithPageToken continues a browse (a search with an empty query) from the
// next_page_token of a previous response.
func WithPageToken(token string) SearchOption {
	return func(r *toolsearchv1.SearchRequest) { r.PageToken = token }
}

// WithTopBand keeps only the results whose relevance_score is at least
// band times the top result's (0.8: within 20 % of the best), so a clear
// winner comes back alone. band must be in (0, 1]; 0 means no cutoff.
func WithTopBand(band float64) SearchOption {
	return func(r *toolsearchv1.SearchRequest) { r.TopBand = band }
}

// WithForModel marks a search whose answer goes to a model as is: the
// sidecar returns only results that clear its relevance floor, never
// padding up to max_results, and an answer flagged no_confident_match
// reveals nothing to the session (SearchRequest.for_model). The Agent
// helper sets it on every tool_search.
func WithForModel() SearchOption {
	return func(r *toolsearchv1.SearchRequest) { r.ForModel = true }
}

// clampInt32 converts n to int32, saturating instead of wrapping around, so
// an out-of-range value still reaches the sidecar as out of range.
func clampInt32(n int) int32 {
	switch {
	case n > math.MaxInt32:
		return math.MaxInt32
	case n < math.MinInt32:
		return math.MinInt32
	}
	return int32(n)
}

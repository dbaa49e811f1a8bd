package server

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/toolset"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Service implements toolsearch.v1.ToolSearchService over a search engine.
// Until SetEngine is called it answers every RPC with UNAVAILABLE (the
// catalog is still loading). It is safe for concurrent use.
type Service struct {
	toolsearchv1.UnimplementedToolSearchServiceServer
	engine atomic.Pointer[search.Engine]
	log    *slog.Logger
	// metrics records searches (nil: none).
	metrics *Metrics
	// maxMessageSize is the largest answer sent, in bytes.
	maxMessageSize int
	// toolsets memoizes GetToolset's schema normalization across calls.
	toolsets *toolset.Cache
	// toolsetDefaults fill what a GetToolset request leaves unset.
	toolsetDefaults toolset.Defaults
}

// NewService returns a service with no engine yet; log receives internal
// errors (nil means slog.Default()).
func NewService(log *slog.Logger) *Service {
	if log == nil {
		log = slog.Default()
	}
	return &Service{log: log, maxMessageSize: DefaultMaxMessageSize, toolsets: toolset.NewCache(0)}
}

// SetEngine makes the service answer with e.
func (s *Service) SetEngine(e *search.Engine) { s.engine.Store(e) }

// errLoading is returned by every RPC before the engine is set.
var errLoading = statusMsg(errNotReady, "the tool catalog is still loading; retry in a moment (the health service says SERVING when ready)")

func (s *Service) ready() (*search.Engine, error) {
	if e := s.engine.Load(); e != nil {
		return e, nil
	}
	return nil, errLoading
}

// Search answers a tool search.
func (s *Service) Search(ctx context.Context, in *toolsearchv1.SearchRequest) (*toolsearchv1.SearchResponse, error) {
	e, err := s.ready()
	if err != nil {
		return nil, err
	}
	req, err := searchRequest(in)
	if err != nil {
		return nil, err
	}
	res, err := e.Search(ctx, req)
	if err != nil {
		return nil, toStatus(ctx, s.log, "Search", err)
	}
	s.metrics.ObserveSearch(res)
	return searchResponse(res), nil
}

// ListTools pages through names and summaries.
func (s *Service) ListTools(ctx context.Context, in *toolsearchv1.ListToolsRequest) (*toolsearchv1.ListToolsResponse, error) {
	e, err := s.ready()
	if err != nil {
		return nil, err
	}
	page, err := e.List(in.GetServer(), in.GetPageToken(), int(in.GetPageSize()))
	if err != nil {
		return nil, toStatus(ctx, s.log, "ListTools", err)
	}
	out := &toolsearchv1.ListToolsResponse{
		NextPageToken:  page.NextPageToken,
		TotalSize:      int32(page.Total),
		CatalogVersion: page.CatalogVersion,
		Tools:          make([]*toolsearchv1.ToolSummary, len(page.Tools)),
	}
	for i, t := range page.Tools {
		out.Tools[i] = &toolsearchv1.ToolSummary{Name: t.Name, Server: t.Server, Category: t.Category, Summary: t.Summary()}
	}
	return out, nil
}

// UpsertTools inserts or replaces tools atomically.
func (s *Service) UpsertTools(ctx context.Context, in *toolsearchv1.UpsertToolsRequest) (*toolsearchv1.UpsertToolsResponse, error) {
	e, err := s.ready()
	if err != nil {
		return nil, err
	}
	tools := make([]search.Tool, len(in.GetTools()))
	for i, m := range in.GetTools() {
		if tools[i], err = toolFromMessage(i, m); err != nil {
			return nil, err
		}
	}
	res, err := e.Upsert(ctx, tools)
	if err != nil {
		return nil, toStatus(ctx, s.log, "UpsertTools", err)
	}
	return &toolsearchv1.UpsertToolsResponse{
		CatalogVersion: res.CatalogVersion,
		Inserted:       int32(res.Inserted),
		Updated:        int32(res.Updated),
		ToolCount:      int32(res.ToolCount),
	}, nil
}

// DeleteTools removes tools atomically.
func (s *Service) DeleteTools(ctx context.Context, in *toolsearchv1.DeleteToolsRequest) (*toolsearchv1.DeleteToolsResponse, error) {
	e, err := s.ready()
	if err != nil {
		return nil, err
	}
	res, err := e.Delete(ctx, in.GetNames())
	if err != nil {
		return nil, toStatus(ctx, s.log, "DeleteTools", err)
	}
	return &toolsearchv1.DeleteToolsResponse{
		CatalogVersion: res.CatalogVersion,
		Deleted:        int32(res.Deleted),
		ToolCount:      int32(res.ToolCount),
	}, nil
}

// GetCatalogInfo describes the catalog and the index.
func (s *Service) GetCatalogInfo(ctx context.Context, _ *toolsearchv1.GetCatalogInfoRequest) (*toolsearchv1.GetCatalogInfoResponse, error) {
	e, err := s.ready()
	if err != nil {
		return nil, err
	}
	return catalogInfo(e.Info()), nil
}

// isClientError reports whether err is the caller's doing, for log levels.
func isClientError(err error) bool {
	switch status.Code(err) {
	case codes.OK, codes.InvalidArgument, codes.NotFound, codes.Canceled, codes.DeadlineExceeded, codes.Unauthenticated, codes.PermissionDenied:
		return true
	}
	return errors.Is(err, context.Canceled)
}

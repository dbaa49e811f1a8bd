package server

import (
	"encoding/json"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/jsontext"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/search/searchpb"
)

// Conversions between the API's messages and the engine's types.

// searchRequest converts a SearchRequest; an unknown search type is
// INVALID_ARGUMENT.
func searchRequest(in *toolsearchv1.SearchRequest) (search.Request, error) {
	mode, ok := searchpb.Mode(in.GetSearchType())
	if !ok {
		return search.Request{}, statusf(errBadRequest,
			"search_type %d is not known; use SEARCH_TYPE_SEMANTIC, SEARCH_TYPE_KEYWORD or SEARCH_TYPE_REGEX", in.GetSearchType())
	}
	return search.Request{
		Query:      in.GetQuery(),
		Mode:       mode,
		MaxResults: int(in.GetMaxResults()),
		Category:   in.GetCategoryFilter(),
		Visible:    in.GetVisibleTools(),
		SessionID:  in.GetSessionId(),
		Debug:      in.GetDebug(),
		PageToken:  in.GetPageToken(),
		TopBand:    in.GetTopBand(),
		ForModel:   in.GetForModel(),
	}, nil
}

// searchResponse converts an engine result (searchpb.Response, shared with
// the MCP endpoint).
func searchResponse(r search.Result) *toolsearchv1.SearchResponse { return searchpb.Response(r) }

// toolMessage converts a catalog tool to its message.
func toolMessage(t search.Tool) *toolsearchv1.Tool {
	return &toolsearchv1.Tool{
		Name:         t.Name,
		Server:       t.Server,
		Category:     t.Category,
		Description:  t.Description,
		InputSchema:  string(t.InputSchema),
		Annotations:  string(t.Annotations),
		Title:        t.Title,
		OutputSchema: string(t.OutputSchema),
	}
}

// emptySchema is the input schema of a tool that declares none.
const emptySchema = `{"type":"object","properties":{}}`

// toolFromMessage converts a tool message; i is its index in the request,
// for error messages. The schema and annotations must be JSON text; whether
// they are objects, and every other rule, is the catalog's to check.
func toolFromMessage(i int, m *toolsearchv1.Tool) (search.Tool, error) {
	t := search.Tool{
		Name:        m.GetName(),
		Server:      m.GetServer(),
		Category:    m.GetCategory(),
		Description: m.GetDescription(),
	}
	schema := m.GetInputSchema()
	if schema == "" {
		schema = emptySchema
	}
	if p := jsontext.Problem([]byte(schema)); p != "" {
		return t, statusf(errBadRequest,
			"tools[%d] (%q): input_schema is %s; send a JSON object such as %s", i, m.GetName(), p, emptySchema)
	}
	t.InputSchema = json.RawMessage(schema)
	if a := m.GetAnnotations(); a != "" {
		if p := jsontext.Problem([]byte(a)); p != "" {
			return t, statusf(errBadRequest,
				"tools[%d] (%q): annotations is %s; send a JSON object or leave it empty", i, m.GetName(), p)
		}
		t.Annotations = json.RawMessage(a)
	}
	t.Title = m.GetTitle()
	if o := m.GetOutputSchema(); o != "" {
		if p := jsontext.Problem([]byte(o)); p != "" {
			return t, statusf(errBadRequest,
				"tools[%d] (%q): output_schema is %s; send a JSON object or leave it empty", i, m.GetName(), p)
		}
		t.OutputSchema = json.RawMessage(o)
	}
	return t, nil
}

// catalogInfo converts the engine's description of itself.
func catalogInfo(in search.Info) *toolsearchv1.GetCatalogInfoResponse {
	servers := make([]*toolsearchv1.ServerInfo, len(in.Servers))
	for i, s := range in.Servers {
		servers[i] = &toolsearchv1.ServerInfo{Name: s.Name, ToolCount: int32(s.Tools)}
	}
	return &toolsearchv1.GetCatalogInfoResponse{
		ToolCount:           int32(in.ToolCount),
		CatalogVersion:      in.CatalogVersion,
		Embedder:            in.Embedder,
		EmbeddingDimensions: int32(in.Dimensions),
		IndexState:          searchpb.IndexState(in.IndexState),
		Servers:             servers,
		MaxResultsCap:       int32(in.MaxResultsCap),
		IndexedTools:        int32(in.IndexedTools),
	}
}

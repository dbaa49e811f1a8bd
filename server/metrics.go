package server

import (
	"context"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/toolsearch/toolsearch/search"
	"google.golang.org/grpc"
	"google.golang.org/grpc/status"
)

// Metrics holds the sidecar's Prometheus metrics, in a registry of their
// own (with the Go runtime and process collectors). Every name starts with
// toolsearch_; docs/operations.md lists them with their meaning. A nil
// *Metrics records nothing, so code paths need no checks. It is safe for
// concurrent use.
type Metrics struct {
	reg *prometheus.Registry

	requests      *prometheus.CounterVec
	requestTime   *prometheus.HistogramVec
	searches      *prometheus.CounterVec
	zeroResults   *prometheus.CounterVec
	regexScans    prometheus.Counter
	toolUses      *prometheus.CounterVec
	learnedLifts  prometheus.Counter
	learnedLines  *prometheus.CounterVec
	stageTime     *prometheus.HistogramVec
	embedCalls    *prometheus.CounterVec
	embedErrors   *prometheus.CounterVec
	embedBatch    *prometheus.HistogramVec
	embedTime     *prometheus.HistogramVec
	indexBuild    prometheus.Gauge
	catalogLimits *prometheus.GaugeVec
	mcp           *MCPMetrics

	engine atomic.Pointer[search.Engine]
}

// latencyBuckets spans 25 µs to about 0.8 s by doubling: a keyword search
// over 2.5k tools takes ~150 µs, a query embedding on a local Ollama ~8 ms,
// and the query timeout is 300 ms by default.
var latencyBuckets = prometheus.ExponentialBuckets(25e-6, 2, 16)

// NewMetrics creates the metrics; version is reported by
// toolsearch_build_info.
func NewMetrics(version string) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.mcp = newMCPMetrics(m.reg)
	f := func(c prometheus.Collector) { m.reg.MustRegister(c) }
	f(collectors.NewGoCollector())
	f(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name:        "toolsearch_build_info",
		Help:        "Always 1; the version label is the sidecar's version.",
		ConstLabels: prometheus.Labels{"version": version},
	}, func() float64 { return 1 }))
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "toolsearch_grpc_requests_total",
		Help: "gRPC calls handled, by service, method and status code.",
	}, []string{"service", "method", "code"})
	m.requestTime = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "toolsearch_grpc_request_duration_seconds",
		Help:    "Time to handle a unary gRPC call, by service and method.",
		Buckets: latencyBuckets,
	}, []string{"service", "method"})
	m.searches = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "toolsearch_searches_total",
		Help: "Successful searches, by requested mode, the mode that answered, and the fallback reason (none when the requested mode answered).",
	}, []string{"requested", "answered", "fallback_reason"})
	m.regexScans = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "toolsearch_regex_scans_total",
		Help: "Regex searches whose pattern had no literal of 3 characters for the trigram index, so every tool was matched (a scan).",
	})
	m.toolUses = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "toolsearch_tool_use_reports_total",
		Help: "ReportToolUse calls answered, by result: recorded, or the reason nothing was learned (learning_disabled, unknown_session, not_revealed, error_outcome, session_bound, miss_bound).",
	}, []string{"result"})
	m.learnedLifts = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "toolsearch_learned_lifted_searches_total",
		Help: "Successful searches where learning from use lifted at least one returned tool.",
	})
	m.learnedLines = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "toolsearch_learned_import_lines_total",
		Help: "Lines of learned state read at start-up (source file) and by --learn-from pulls (source pull), by result: imported, or skipped (not a valid record: each bad line costs only itself).",
	}, []string{"source", "result"})
	m.zeroResults = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "toolsearch_search_zero_results_total",
		Help: "Successful searches that returned no tool, by the mode that answered.",
	}, []string{"answered"})
	m.stageTime = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "toolsearch_search_stage_duration_seconds",
		Help:    "Time per stage of a search: query_embedding, vector_search, lexical (keyword, regex, fuzzy, select, browse and fusion) and total (the engine's whole search). A stage that did not run is not observed.",
		Buckets: latencyBuckets,
	}, []string{"stage"})
	m.embedCalls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "toolsearch_embedder_calls_total",
		Help: "Calls to the embedder, by kind (query or document).",
	}, []string{"kind"})
	m.embedErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "toolsearch_embedder_errors_total",
		Help: "Embedder calls that failed (Ollama down, model missing, timeout), by kind.",
	}, []string{"kind"})
	m.embedBatch = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "toolsearch_embedder_batch_size",
		Help:    "Texts per embedder call, by kind.",
		Buckets: prometheus.ExponentialBuckets(1, 2, 12),
	}, []string{"kind"})
	m.embedTime = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "toolsearch_embedder_duration_seconds",
		Help:    "Time per embedder call, by kind.",
		Buckets: prometheus.ExponentialBuckets(25e-6, 2, 20),
	}, []string{"kind"})
	m.indexBuild = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "toolsearch_index_build_seconds",
		Help: "Time from engine start until every tool of the start-up catalog had a vector; 0 until then, and without an embedder.",
	})
	m.catalogLimits = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "toolsearch_limit",
		Help: "Configured limits, by name (max_tools, max_query_length, max_results_cap, ...).",
	}, []string{"limit"})
	for _, c := range []prometheus.Collector{m.requests, m.requestTime, m.searches, m.zeroResults, m.regexScans, m.toolUses, m.learnedLifts, m.learnedLines, m.stageTime,
		m.embedCalls, m.embedErrors, m.embedBatch, m.embedTime, m.indexBuild, m.catalogLimits, infoCollector{m}} {
		f(c)
	}
	return m
}

// Registry is the registry to serve (promhttp.HandlerFor).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// setEngine makes the catalog gauges read e's Info at each scrape.
func (m *Metrics) setEngine(e *search.Engine) {
	if m != nil {
		m.engine.Store(e)
	}
}

// SetLimit reports a configured limit as toolsearch_limit{limit=name}.
func (m *Metrics) SetLimit(name string, v float64) {
	if m != nil {
		m.catalogLimits.WithLabelValues(name).Set(v)
	}
}

// SetIndexBuild records how long the start-up catalog took to index.
func (m *Metrics) SetIndexBuild(d time.Duration) {
	if m != nil {
		m.indexBuild.Set(d.Seconds())
	}
}

// ObserveLearnedImport counts the lines of one import of learned state
// from source ("file" or "pull"): imported and skipped.
func (m *Metrics) ObserveLearnedImport(source string, imported, skipped int) {
	if m == nil {
		return
	}
	m.learnedLines.WithLabelValues(source, "imported").Add(float64(imported))
	m.learnedLines.WithLabelValues(source, "skipped").Add(float64(skipped))
}

// ObserveEmbed records one embedder call of n texts.
func (m *Metrics) ObserveEmbed(kind string, n int, d time.Duration, err error) {
	if m == nil {
		return
	}
	m.embedCalls.WithLabelValues(kind).Inc()
	m.embedBatch.WithLabelValues(kind).Observe(float64(n))
	m.embedTime.WithLabelValues(kind).Observe(d.Seconds())
	if err != nil {
		m.embedErrors.WithLabelValues(kind).Inc()
	}
}

// ObserveSearch records a successful search (the gRPC service's, and the
// MCP endpoint's through mcpserver.Config.OnSearch). Safe on a nil Metrics.
func (m *Metrics) ObserveSearch(r search.Result) {
	if m == nil {
		return
	}
	md := r.Metadata
	requested := string(md.RequestedSearchType)
	if requested == "" {
		requested = string(search.ModeSemantic)
	}
	answered := string(md.SearchType)
	reason := md.FallbackReason
	if reason == "" {
		reason = "none"
	}
	m.searches.WithLabelValues(requested, answered, reason).Inc()
	if len(r.References) == 0 {
		m.zeroResults.WithLabelValues(answered).Inc()
	}
	if md.RegexScanned {
		m.regexScans.Inc()
	}
	for _, ref := range r.References {
		if ref.Learned != nil {
			m.learnedLifts.Inc()
			break
		}
	}
	for _, s := range []struct {
		stage string
		d     time.Duration
	}{
		{"query_embedding", md.Stages.QueryEmbedding},
		{"vector_search", md.Stages.VectorSearch},
		{"lexical", md.Stages.Lexical},
		{"total", md.Elapsed},
	} {
		if s.d > 0 {
			m.stageTime.WithLabelValues(s.stage).Observe(s.d.Seconds())
		}
	}
}

// observeToolUse records an answered usage report.
func (m *Metrics) observeToolUse(rep search.UseReport) {
	if m == nil {
		return
	}
	result := rep.Reason
	if rep.Recorded {
		result = "recorded"
	}
	m.toolUses.WithLabelValues(result).Inc()
}

// splitMethod turns "/pkg.Service/Method" into its service and method.
func splitMethod(full string) (string, string) {
	service, method, ok := strings.Cut(strings.TrimPrefix(full, "/"), "/")
	if !ok {
		return "unknown", full
	}
	return service, method
}

// MetricsUnaryInterceptor counts unary calls by method and status code, and
// times them. With a nil m it only calls the handler.
func MetricsUnaryInterceptor(m *Metrics) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if m == nil {
			return handler(ctx, req)
		}
		start := time.Now()
		resp, err := handler(ctx, req)
		service, method := splitMethod(info.FullMethod)
		m.requests.WithLabelValues(service, method, status.Code(err).String()).Inc()
		m.requestTime.WithLabelValues(service, method).Observe(time.Since(start).Seconds())
		return resp, err
	}
}

// MetricsStreamInterceptor counts streaming calls (health Watch, server
// reflection) by method and status code when they end.
func MetricsStreamInterceptor(m *Metrics) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		err := handler(srv, ss)
		if m != nil {
			service, method := splitMethod(info.FullMethod)
			m.requests.WithLabelValues(service, method, status.Code(err).String()).Inc()
		}
		return err
	}
}

// infoCollector reports the catalog and index gauges from Engine.Info at
// scrape time, so they are never stale; before the engine is ready it
// reports nothing.
type infoCollector struct{ m *Metrics }

var (
	descTools = prometheus.NewDesc("toolsearch_catalog_tools",
		"Tools in the current catalog snapshot.", nil, nil)
	descVersion = prometheus.NewDesc("toolsearch_catalog_version",
		"Version of the current catalog snapshot; it grows by one with every UpsertTools or DeleteTools.", nil, nil)
	descServers = prometheus.NewDesc("toolsearch_catalog_servers",
		"Servers (tool namespaces) in the current catalog.", nil, nil)
	descIndexed = prometheus.NewDesc("toolsearch_index_tools",
		"Tools with a vector in the semantic index; equals toolsearch_catalog_tools once indexing is done.", nil, nil)
	descState = prometheus.NewDesc("toolsearch_index_state",
		"1 for the semantic index's current state (lexical_only, warming, ready, degraded), 0 for the others.", []string{"state"}, nil)
)

// indexStateNames names the index states for toolsearch_index_state.
var indexStateNames = []struct {
	state search.IndexState
	name  string
}{
	{search.IndexLexicalOnly, "lexical_only"},
	{search.IndexWarming, "warming"},
	{search.IndexReady, "ready"},
	{search.IndexDegraded, "degraded"},
}

func (c infoCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descTools, descVersion, descServers, descIndexed, descState} {
		ch <- d
	}
}

func (c infoCollector) Collect(ch chan<- prometheus.Metric) {
	e := c.m.engine.Load()
	if e == nil {
		return
	}
	info := e.Info()
	ch <- prometheus.MustNewConstMetric(descTools, prometheus.GaugeValue, float64(info.ToolCount))
	ch <- prometheus.MustNewConstMetric(descVersion, prometheus.GaugeValue, float64(info.CatalogVersion))
	ch <- prometheus.MustNewConstMetric(descServers, prometheus.GaugeValue, float64(len(info.Servers)))
	ch <- prometheus.MustNewConstMetric(descIndexed, prometheus.GaugeValue, float64(info.IndexedTools))
	for _, s := range indexStateNames {
		v := 0.0
		if info.IndexState == s.state {
			v = 1
		}
		ch <- prometheus.MustNewConstMetric(descState, prometheus.GaugeValue, v, s.name)
	}
}

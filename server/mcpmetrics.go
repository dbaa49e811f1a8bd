package server

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// MCPMetrics holds the metrics of the live MCP catalog sources
// (source/mcp): it implements that package's Observer. A nil *MCPMetrics
// records nothing. It is safe for concurrent use.
type MCPMetrics struct {
	up           *prometheus.GaugeVec
	tools        *prometheus.GaugeVec
	listTime     *prometheus.HistogramVec
	reconnects   *prometheus.CounterVec
	toolsChanged *prometheus.CounterVec
	invalid      *prometheus.CounterVec
}

// listBuckets span 1 ms to about 33 s by doubling: a local server lists in
// milliseconds, 1,000 tools over 10 pages in ~100 ms, and the list timeout
// is 15 s by default.
var listBuckets = prometheus.ExponentialBuckets(1e-3, 2, 16)

func newMCPMetrics(reg *prometheus.Registry) *MCPMetrics {
	m := &MCPMetrics{
		up: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "toolsearch_mcp_server_up",
			Help: "1 while the MCP server is connected and listed, 0 while it is down or connecting.",
		}, []string{"server"}),
		tools: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "toolsearch_mcp_server_tools",
			Help: "Tools of the MCP server in the catalog (kept through its grace period when it is down).",
		}, []string{"server"}),
		listTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "toolsearch_mcp_list_duration_seconds",
			Help:    "Time of one complete tools/list of an MCP server, every page.",
			Buckets: listBuckets,
		}, []string{"server"}),
		reconnects: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolsearch_mcp_reconnects_total",
			Help: "Reconnection attempts to an MCP server after it went away (restarts of a stdio server).",
		}, []string{"server"}),
		toolsChanged: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolsearch_mcp_tools_changed_total",
			Help: "Tools applied to the catalog from an MCP server, by kind: inserted, updated or deleted.",
		}, []string{"server", "kind"}),
		invalid: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolsearch_mcp_invalid_tools_total",
			Help: "Tools an MCP server listed that failed validation and were left out, summed over listings.",
		}, []string{"server"}),
	}
	reg.MustRegister(m.up, m.tools, m.listTime, m.reconnects, m.toolsChanged, m.invalid)
	return m
}

// MCP returns the MCP source metrics, nil when m is nil.
func (m *Metrics) MCP() *MCPMetrics {
	if m == nil {
		return nil
	}
	return m.mcp
}

// ServerUp sets toolsearch_mcp_server_up.
func (m *MCPMetrics) ServerUp(server string, up bool) {
	if m == nil {
		return
	}
	v := 0.0
	if up {
		v = 1
	}
	m.up.WithLabelValues(server).Set(v)
}

// ServerTools sets toolsearch_mcp_server_tools.
func (m *MCPMetrics) ServerTools(server string, tools int) {
	if m != nil {
		m.tools.WithLabelValues(server).Set(float64(tools))
	}
}

// ListDuration observes toolsearch_mcp_list_duration_seconds.
func (m *MCPMetrics) ListDuration(server string, d time.Duration) {
	if m != nil {
		m.listTime.WithLabelValues(server).Observe(d.Seconds())
	}
}

// Reconnect counts toolsearch_mcp_reconnects_total.
func (m *MCPMetrics) Reconnect(server string) {
	if m != nil {
		m.reconnects.WithLabelValues(server).Inc()
	}
}

// ToolsChanged counts toolsearch_mcp_tools_changed_total.
func (m *MCPMetrics) ToolsChanged(server, kind string, n int) {
	if m != nil && n > 0 {
		m.toolsChanged.WithLabelValues(server, kind).Add(float64(n))
	}
}

// InvalidTools counts toolsearch_mcp_invalid_tools_total.
func (m *MCPMetrics) InvalidTools(server string, n int) {
	if m != nil && n > 0 {
		m.invalid.WithLabelValues(server).Add(float64(n))
	}
}

package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch/learn"
	"github.com/toolsearch/toolsearch/mcpserver"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
	mcp "github.com/toolsearch/toolsearch/source/mcp"
	"github.com/toolsearch/toolsearch/toolset"
	"github.com/toolsearch/toolsearch/vectorindex"
)

// config is the sidecar's configuration: flags, whose defaults come from
// TOOLSEARCH_* environment variables.
// Values of --ready-when.
const (
	readyCatalog  = "catalog"
	readySemantic = "semantic"
)

type config struct {
	listen          string
	catalogs        []string
	logFormat       string
	logLevel        slog.Level
	queryLog        server.QueryLogMode
	maxResultsCap   int
	shutdownTimeout time.Duration
	embedder        string
	ollamaHost      string
	ollamaModel     string
	cacheDir        string
	// hnsw configures the vector index: how it stores vectors (--quantize).
	hnsw         vectorindex.HNSWConfig
	queryTimeout time.Duration
	maxSessions  int
	sessionTTL   time.Duration

	// Learning from use (learn.go).
	learn             bool
	learnHalfLife     time.Duration
	learnFrom         string
	learnPullInterval time.Duration
	learnReportPerMin int
	learnShared       bool
	learnPin          bool
	learnPinShare     float64
	learnPinSessions  int

	// Fleet state on PostgreSQL (store.go).
	store         string
	storeMaxConns int

	metricsListen string

	// stopWithParent: shut down when the parent process exits (make run).
	stopWithParent bool
	// readyWhen is what health's SERVING (and /readyz) waits for.
	readyWhen string
	// Live MCP servers (mcp.go).
	mcpLists   mcpLists
	mcpConfig  string
	mcpTimeout time.Duration
	mcpGrace   time.Duration
	mcpServers []mcp.ServerConfig // from the above, by checkMCP
	// MCP endpoint (mcpendpoint.go).
	mcpListen       string
	mcpStdio        bool
	mcpVisible      *listFlag
	mcpAlwaysLoaded *listFlag
	mcpTokenScopes  string
	mcpCallTimeout  time.Duration
	// Tool lists (GetToolset and the MCP endpoint): toolset is built from
	// the three flags by checks.
	deferralThreshold int
	deferralMode      string
	systemPromptFile  string
	toolset           toolset.Defaults
	// keywordsFile holds search-only text by tool name (keywords).
	keywordsFile string
	keywords     map[string]string

	// Limits.
	maxMessageSize       int
	maxQueryLength       int
	maxTools             int
	memoryLimit          string // a size, auto or none (memory.go)
	gomemlimit           string // GOMEMLIMIT's value, read by --memory-limit auto
	requestTimeout       time.Duration
	maxConcurrentStreams int
	keepaliveMinTime     time.Duration
	keepaliveTime        time.Duration

	// Security.
	tlsCert       string
	tlsKey        string
	tlsClientCA   string
	authTokenFile string
}

// Defaults of the limits (docs/operations.md says why each is what it is).
const (
	// defaultMaxMessageSize is gRPC's own default, 4 MiB: an UpsertTools
	// of about 2,000 typical tools, far more than any search response.
	defaultMaxMessageSize = 4 << 20
	// defaultMaxTools bounds the catalog's size in tools: 100,000 typical
	// tools are estimated at 511 MiB of live heap with the built-in model
	// (search.EstimateBytes), so memory, not this, is the limit a pod
	// reaches first; --memory-limit guards that (docs/operations.md,
	// memory budget).
	defaultMaxTools = 100_000
	// defaultRequestTimeout is the deadline of a call whose client set
	// none: searches take milliseconds, an UpsertTools waits up to 10 s
	// for the embedder, so 30 s only stops calls that are stuck.
	defaultRequestTimeout = 30 * time.Second
	// defaultMaxConcurrentStreams caps calls in flight per connection;
	// one agent pod needs a few dozen at most.
	defaultMaxConcurrentStreams = 1000
	// defaultKeepaliveMinTime is the shortest client keepalive ping
	// interval tolerated (clients pinging more often get GOAWAY
	// too_many_pings); gRPC's own default of 5 min breaks clients that
	// ping every 10-30 s, as many do.
	defaultKeepaliveMinTime = 10 * time.Second
	// defaultKeepaliveTime is how long a connection may be idle before the
	// sidecar pings it to find dead peers (gRPC's default, 2 h).
	defaultKeepaliveTime = 2 * time.Hour
)

// envPrefix starts the environment variable of every flag: --max-results-cap
// has TOOLSEARCH_MAX_RESULTS_CAP.
const envPrefix = "TOOLSEARCH_"

// envName is the environment variable that sets a flag's default.
func envName(flagName string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// parseConfig reads flags from args with defaults from getenv. A malformed
// environment value is an error naming the variable.
func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("sidecar", flag.ContinueOnError)
	// The flag package's own messages are replaced: --help prints the
	// flags by group, a mistyped flag names the closest one (usage.go).
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var c config
	var errs []error
	env := func(name, def string) string {
		if v := getenv(envName(name)); v != "" {
			return v
		}
		return def
	}
	str := func(p *string, name, def, usage string) {
		fs.StringVar(p, name, env(name, def), fmt.Sprintf("%s (env %s)", usage, envName(name)))
	}
	integer := func(p *int, name string, def int, usage string) {
		v := def
		if s := getenv(envName(name)); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s=%q is not an integer", envName(name), s))
			}
			v = n
		}
		fs.IntVar(p, name, v, fmt.Sprintf("%s (env %s)", usage, envName(name)))
	}
	duration := func(p *time.Duration, name string, def time.Duration, usage string) {
		v := def
		if s := getenv(envName(name)); s != "" {
			d, err := time.ParseDuration(s)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s=%q is not a duration such as 10s", envName(name), s))
			}
			v = d
		}
		fs.DurationVar(p, name, v, fmt.Sprintf("%s (env %s)", usage, envName(name)))
	}

	number := func(p *float64, name string, def float64, usage string) {
		v := def
		if s := getenv(envName(name)); s != "" {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s=%q is not a number", envName(name), s))
			}
			v = f
		}
		fs.Float64Var(p, name, v, fmt.Sprintf("%s (env %s)", usage, envName(name)))
	}
	boolean := func(p *bool, name string, def bool, usage string) {
		v := def
		if s := getenv(envName(name)); s != "" {
			b, err := strconv.ParseBool(s)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s=%q is not a boolean (true or false)", envName(name), s))
			}
			v = b
		}
		fs.BoolVar(p, name, v, fmt.Sprintf("%s (env %s)", usage, envName(name)))
	}

	str(&c.listen, "listen", "127.0.0.1:50051", "gRPC listen address host:port; loopback by default, since the sidecar serves its own pod")
	catalogs := &listFlag{}
	if v := getenv(envName("catalog")); v != "" {
		catalogs.set = strings.Split(v, ",")
	}
	fs.Var(catalogs, "catalog", fmt.Sprintf("catalog file [SERVER=]PATH, repeatable; SERVER= prefixes its tools' names with SERVER__ (env %s, comma-separated). Formats: MCP tools/list, OpenAI or Anthropic tool arrays, JSONL, YAML", envName("catalog")))
	str(&c.logFormat, "log-format", "json", "log format: json or text")
	level := ""
	str(&level, "log-level", "info", "log level: debug, info, warn or error")
	queryLog := ""
	str(&queryLog, "log-queries", "prefix", fmt.Sprintf("how the request log shows search queries: prefix (the first %d characters; longer runs of a query in an error are cut too), hash (a SHA-256 prefix), or off (=false)", server.LoggedQueryLength))
	integer(&c.maxResultsCap, "max-results-cap", search.DefaultMaxResultsCap, "most results one search returns; larger max_results are clamped to it")
	duration(&c.shutdownTimeout, "shutdown-timeout", server.DefaultShutdownTimeout, "on SIGTERM/SIGINT, how long to wait for calls in flight before stopping hard")
	str(&c.readyWhen, "ready-when", readyCatalog, "when health says SERVING and /readyz answers 200: catalog (as soon as the catalog is loaded; searches answer lexically, fallback_reason index_warming, until the semantic index is built) or semantic (only once every tool is embedded; calls are answered meanwhile)")
	boolean(&c.stopWithParent, "stop-with-parent", false, "shut down gracefully when the process that started the sidecar exits (Linux; make run sets it, so killing make stops the sidecar too)")

	str(&c.embedder, "embedder", "builtin", "embedding model: builtin (the built-in word vectors, nothing to install), ollama (a local Ollama server), or none (lexical search only)")
	ollamaHost := "127.0.0.1:11434"
	if v := getenv("OLLAMA_HOST"); v != "" {
		ollamaHost = v
	}
	str(&c.ollamaHost, "ollama-host", ollamaHost, "Ollama server address, with --embedder ollama; defaults to $OLLAMA_HOST, then 127.0.0.1:11434")
	str(&c.ollamaModel, "ollama-model", "nomic-embed-text", "Ollama embedding model, with --embedder ollama (pull it once: ollama pull MODEL)")
	var quantize string
	str(&quantize, "quantize", "none", "how the vector index stores vectors: none (float32) or int8 (a quarter of the vectors' memory; recall@10 0.9895 against float32 on clustered vectors, nDCG@10 within 0.0012 on every dev set: docs/benchmarks.md)")
	str(&c.cacheDir, "cache-dir", "", "directory of the persistent embedding cache and the saved vector and keyword indexes, so a restart re-embeds only changed tools, loads the built graph instead of rebuilding it, and loads the keyword index when the start-up catalog and the binary are unchanged; empty: nothing persisted")
	duration(&c.queryTimeout, "query-timeout", search.DefaultQueryTimeout, "budget for embedding one query; past it the search answers with keyword results (fallback_reason embedder_timeout)")

	integer(&c.maxSessions, "max-sessions", search.DefaultMaxSessions, "most agent sessions whose revealed tools are kept (least recently used evicted; an evicted session searches again)")
	duration(&c.sessionTTL, "session-ttl", search.DefaultSessionTTL, "how long an idle agent session keeps its revealed tools")

	boolean(&c.learn, "learn", false, "learn from use: rank higher the tools agents actually call for queries like the current one (ReportToolUse, the MCP endpoint's tools/call); saved in --cache-dir as learned.jsonl")
	duration(&c.learnHalfLife, "learn-half-life", learn.DefaultHalfLife, "with --learn, the age at which a learned use counts half")
	str(&c.learnFrom, "learn-from", "", "with --learn, a learned-state JSONL file path or http(s) URL (toolsearch learned --export) to import at start and every --learn-pull-interval: how a fleet without --store shares what it learned")
	duration(&c.learnPullInterval, "learn-pull-interval", 5*time.Minute, "with --learn-from, how often to pull it again")
	boolean(&c.learnShared, "learn-shared", false, "with --learn, one learned state for every request; by default each scope (a request's visible_tools and category_filter) learns apart, so one agent's usage never changes the ranking of an agent with another scope")
	boolean(&c.learnPin, "learn-pin", false, fmt.Sprintf("with --learn, pin what each scope always uses: a tool that at least --learn-pin-min-sessions distinct sessions used, and at least --learn-pin-share of the scope's sessions with %.0f%% confidence, is sent in full on every turn of that scope's GetToolset lists (and MCP tool lists), at most %d per scope, shown by toolsearch learned", 100*learn.PinConfidenceLevel, learn.MaxPinnedPerScope))
	number(&c.learnPinShare, "learn-pin-share", learn.DefaultPinShare, fmt.Sprintf("with --learn-pin, the least share (0 to 1, exclusive) of a scope's sessions that must be shown, with %.0f%% confidence, to use a tool for learning to pin it: the lower bound of the share's confidence interval (Wilson) must reach it, so 0.5 pins a tool 5 of 5 or 7 of 9 sessions used, not 7 of 10 or 19 of 36", 100*learn.PinConfidenceLevel))
	integer(&c.learnPinSessions, "learn-pin-min-sessions", learn.DefaultPinMinSessions, "with --learn-pin, the least number of distinct sessions (2 to 1048576) that used a tool for learning to pin it")
	integer(&c.learnReportPerMin, "learn-report-rate", 60, "with --learn, the most tool-use reports one session may send per minute (bursts of 30); past it ReportToolUse answers RESOURCE_EXHAUSTED")

	str(&c.store, "store", "", "postgres://user:password@host:5432/db?sslmode=verify-full: share the embedding cache, learning (with --learn) and UpsertTools/DeleteTools with every sidecar on the same database (docs/fleet.md); TLS and password options as pgx reads them (sslmode, sslrootcert, sslcert, sslkey, passfile, PG* variables). Empty: each sidecar alone")
	integer(&c.storeMaxConns, "store-max-conns", 4, "with --store, the most connections to PostgreSQL (one more is held for LISTEN)")

	str(&c.mcpListen, "mcp-listen", "", "address host:port of the MCP endpoint (streamable HTTP at /mcp), e.g. 127.0.0.1:8090; empty: off. Uses --tls-cert and --auth-token-file like the gRPC port")
	stdio := getenv(envName("mcp-stdio")) == "true"
	fs.BoolVar(&c.mcpStdio, "mcp-stdio", stdio, fmt.Sprintf("also serve one MCP session on stdin/stdout, for hosts that launch the sidecar as a process; the sidecar stops when it ends (env %s=true)", envName("mcp-stdio")))
	c.mcpVisible, c.mcpAlwaysLoaded = &listFlag{}, &listFlag{}
	for name, l := range map[string]*listFlag{"mcp-visible-tools": c.mcpVisible, "mcp-always-loaded": c.mcpAlwaysLoaded} {
		if v := getenv(envName(name)); v != "" {
			l.set = strings.Split(v, ",")
		}
	}
	fs.Var(c.mcpVisible, "mcp-visible-tools", fmt.Sprintf("default visible tools of MCP connections that send none (names, SERVER:* or PREFIX*), repeatable; empty: the whole catalog (env %s, comma-separated)", envName("mcp-visible-tools")))
	fs.Var(c.mcpAlwaysLoaded, "mcp-always-loaded", fmt.Sprintf("default always-loaded tools of MCP connections that send none (names, SERVER:* or PREFIX*), repeatable (env %s, comma-separated)", envName("mcp-always-loaded")))
	str(&c.mcpTokenScopes, "mcp-token-scopes", "", `JSON file mapping further bearer tokens of the MCP endpoint to their scope, e.g. {"TOKEN": {"visible_tools": ["github:*"], "always_loaded": ["github__create_issue"]}}: one endpoint serves several agents, each its own tool list; empty: none`)
	duration(&c.mcpCallTimeout, "mcp-call-timeout", mcpserver.DefaultCallTimeout, "budget of one tool call forwarded from the MCP endpoint to a live MCP server")
	mcpFlags(fs, &c, getenv, str, duration)

	integer(&c.deferralThreshold, "deferral-threshold", toolset.DefaultDeferralThreshold, "number of (visible) catalog tools from which tool lists defer tools behind tool_search, for GetToolset requests that set none and the MCP endpoint; 1 always defers")
	str(&c.deferralMode, "deferral-mode", string(toolset.DeferOmit), "how deferred tools appear in portable tool lists whose request sets no mode, and on the MCP endpoint: omit, reminder (their names in the system prompt addition) or stub")
	str(&c.keywordsFile, "keywords-file", "", `JSON file of search-only text by tool name, e.g. {"billing__create_invoice": "bill receipt charge"} (a string or a list of words): indexed in the keyword index's own field with the tools' "toolsearch/keywords" annotations, never sent to a model`)
	str(&c.systemPromptFile, "system-prompt-file", "", "file whose text is appended to every tool list's system prompt addition (GetToolset, the MCP endpoint's instructions): what the operator wants every model told about the catalog")

	str(&c.metricsListen, "metrics-listen", "127.0.0.1:9090", "HTTP address of /metrics (Prometheus), /healthz and /readyz; empty disables the listener")

	integer(&c.maxMessageSize, "max-message-size", defaultMaxMessageSize, "largest gRPC message received or sent, in bytes")
	integer(&c.maxQueryLength, "max-query-length", search.MaxQueryLength, "longest search query accepted, in characters (at most 4096); longer queries are INVALID_ARGUMENT")
	integer(&c.maxTools, "max-tools", defaultMaxTools, "most tools the catalog may hold; a larger catalog file stops the start-up, a larger UpsertTools is RESOURCE_EXHAUSTED")
	str(&c.memoryLimit, "memory-limit", memoryLimitAuto, "the sidecar's memory limit, a size such as 512Mi or 1Gi; auto: GOMEMLIMIT if set, else the cgroup's (the container's) limit, else none; none: no budget. The catalog may take an estimated (limit - 64Mi) / 2: a larger catalog file stops the start-up, a larger UpsertTools is RESOURCE_EXHAUSTED saying how many tools fit")
	duration(&c.requestTimeout, "request-timeout", defaultRequestTimeout, "deadline of a call whose client set none; 0 disables")
	integer(&c.maxConcurrentStreams, "max-concurrent-streams", defaultMaxConcurrentStreams, "most calls in flight on one client connection")
	duration(&c.keepaliveMinTime, "keepalive-min-time", defaultKeepaliveMinTime, "shortest interval between a client's keepalive pings; a client pinging more often is disconnected (GOAWAY too_many_pings)")
	duration(&c.keepaliveTime, "keepalive-time", defaultKeepaliveTime, "idle time after which the sidecar pings a client connection to check it is alive")

	str(&c.tlsCert, "tls-cert", "", "TLS certificate file (PEM); with --tls-key, the gRPC listener serves TLS only")
	str(&c.tlsKey, "tls-key", "", "TLS private key file (PEM), with --tls-cert")
	str(&c.tlsClientCA, "tls-client-ca", "", "CA certificates (PEM) that client certificates must chain to: mutual TLS, clients without a valid certificate are refused; needs --tls-cert")
	str(&c.authTokenFile, "auth-token-file", "", "file holding a bearer token every call must carry (metadata \"authorization: Bearer TOKEN\"); calls without it are UNAUTHENTICATED; the health service's Check is exempt (for probes), its Watch and List are not")

	if wantsVersion(args) {
		return c, errVersion
	}
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		printUsage(stderr, fs)
		return c, err
	} else if err != nil {
		return c, parseError(fs, err)
	}
	if len(errs) > 0 {
		return c, errs[0]
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q; catalogs are given with --catalog", fs.Args())
	}
	c.catalogs = catalogs.values()
	if err := c.logLevel.UnmarshalText([]byte(level)); err != nil {
		return c, fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
	}
	var err error
	if c.queryLog, err = server.ParseQueryLogMode(queryLog); err != nil {
		return c, fmt.Errorf("--log-queries %w", err)
	}
	if c.hnsw.Quantization, err = vectorindex.ParseQuantization(quantize); err != nil {
		return c, fmt.Errorf("--quantize %q: use none or int8", quantize)
	}
	if c.readyWhen != readyCatalog && c.readyWhen != readySemantic {
		return c, fmt.Errorf("--ready-when %q: use %s or %s", c.readyWhen, readyCatalog, readySemantic)
	}
	if c.logFormat != "json" && c.logFormat != "text" {
		return c, fmt.Errorf("--log-format %q: use json or text", c.logFormat)
	}
	if c.maxResultsCap < 1 || c.maxResultsCap > 100 {
		return c, fmt.Errorf("--max-results-cap %d: use 1 to 100", c.maxResultsCap)
	}
	switch c.embedder {
	case "builtin", "ollama", "none":
	default:
		return c, fmt.Errorf("--embedder %q: use builtin, ollama or none", c.embedder)
	}
	if c.queryTimeout <= 0 {
		return c, fmt.Errorf("--query-timeout %v: use a positive duration such as 300ms", c.queryTimeout)
	}
	if !(c.learnPinShare > 0 && c.learnPinShare < 1) {
		return c, fmt.Errorf("--learn-pin-share %v: use a share in (0, 1), e.g. 0.5 for half of a scope's sessions (a share of 1 is never shown with confidence)", c.learnPinShare)
	}
	if c.learnPinSessions < 2 || c.learnPinSessions > learn.MaxRecordSessions {
		return c, fmt.Errorf("--learn-pin-min-sessions %d: use 2 to %d (one session never pins a tool)", c.learnPinSessions, learn.MaxRecordSessions)
	}
	if c.learn && c.learnFrom != "" && c.store != "" {
		// Importing keeps the larger of two states (idempotent), replaying
		// the log adds uses: a use in both the file and the log counted two
		// sessions and weight 2 (measured on two pods and one PostgreSQL); TestUsageErrors.
		return c, fmt.Errorf("--learn-from and --store: give one; with --store every pod learns every pod's uses from the database, and importing a learned-state file as well counts each use it shares with the database twice")
	}
	if c.maxSessions < 1 {
		return c, fmt.Errorf("--max-sessions %d: use a positive number", c.maxSessions)
	}
	if c.sessionTTL <= 0 {
		return c, fmt.Errorf("--session-ttl %v: use a positive duration such as 1h", c.sessionTTL)
	}
	if c.maxMessageSize < 1024 {
		return c, fmt.Errorf("--max-message-size %d: use at least 1024 bytes (default %d)", c.maxMessageSize, defaultMaxMessageSize)
	}
	if c.maxQueryLength < 1 || c.maxQueryLength > search.MaxQueryLength {
		return c, fmt.Errorf("--max-query-length %d: use 1 to %d", c.maxQueryLength, search.MaxQueryLength)
	}
	if c.maxTools < 1 {
		return c, fmt.Errorf("--max-tools %d: use a positive number (default %d)", c.maxTools, defaultMaxTools)
	}
	c.gomemlimit = getenv("GOMEMLIMIT")
	switch c.memoryLimit {
	case memoryLimitAuto, memoryLimitNone:
	default:
		if n, err := parseBytes(c.memoryLimit); err != nil || n <= 0 {
			return c, fmt.Errorf("--memory-limit %q: use a size such as 512Mi or 1Gi, auto (GOMEMLIMIT, else the cgroup's limit) or none", c.memoryLimit)
		}
	}
	if c.requestTimeout < 0 {
		return c, fmt.Errorf("--request-timeout %v: use a positive duration such as 30s, or 0 for none", c.requestTimeout)
	}
	if c.maxConcurrentStreams < 1 {
		return c, fmt.Errorf("--max-concurrent-streams %d: use a positive number", c.maxConcurrentStreams)
	}
	if c.keepaliveMinTime <= 0 || c.keepaliveTime <= 0 {
		return c, fmt.Errorf("--keepalive-min-time %v, --keepalive-time %v: use positive durations", c.keepaliveMinTime, c.keepaliveTime)
	}
	if (c.tlsCert == "") != (c.tlsKey == "") {
		return c, fmt.Errorf("--tls-cert and --tls-key go together; give both, or neither for plaintext")
	}
	if c.tlsClientCA != "" && c.tlsCert == "" {
		return c, fmt.Errorf("--tls-client-ca needs --tls-cert and --tls-key: mutual TLS is TLS first")
	}
	if c.deferralThreshold < 1 {
		return c, fmt.Errorf("--deferral-threshold %d: use a positive count (1 always defers)", c.deferralThreshold)
	}
	c.toolset = toolset.Defaults{DeferralThreshold: c.deferralThreshold, Defer: toolset.DeferMode(c.deferralMode)}
	if err := c.toolset.Validate(); err != nil {
		return c, fmt.Errorf("--deferral-mode: %w", err)
	}
	if c.keywordsFile != "" {
		var err error
		if c.keywords, err = readKeywords(c.keywordsFile); err != nil {
			return c, fmt.Errorf("--keywords-file: %w", err)
		}
	}
	if c.systemPromptFile != "" {
		text, err := os.ReadFile(c.systemPromptFile)
		if err != nil {
			return c, fmt.Errorf("--system-prompt-file: %w", err)
		}
		c.toolset.PromptAppend = string(text)
	}
	if c.mcpCallTimeout <= 0 {
		return c, fmt.Errorf("--mcp-call-timeout %v: use a positive duration such as 1m", c.mcpCallTimeout)
	}
	if s := getenv(envName("mcp-stdio")); s != "" && s != "true" && s != "false" {
		return c, fmt.Errorf("%s=%q: use true or false", envName("mcp-stdio"), s)
	}
	if err := c.checkMCP(); err != nil {
		return c, err
	}
	if c.shutdownTimeout <= 0 {
		return c, fmt.Errorf("--shutdown-timeout %v: use a positive duration such as 10s", c.shutdownTimeout)
	}
	return c, nil
}

// listFlag is a repeatable flag whose environment default is replaced, not
// extended, by the first value given on the command line.
type listFlag struct {
	set      []string
	explicit bool
}

func (l *listFlag) String() string { return strings.Join(l.set, ",") }

func (l *listFlag) Set(v string) error {
	if !l.explicit {
		l.set, l.explicit = nil, true
	}
	l.set = append(l.set, v)
	return nil
}

func (l *listFlag) values() []string {
	var out []string
	for _, v := range l.set {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// readKeywords reads a --keywords-file: a JSON object from tool names to
// search-only text, each a string or a list of strings.
func readKeywords(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: %w; write a JSON object such as {\"TOOL\": \"words and synonyms\"}", path, err)
	}
	out := make(map[string]string, len(raw))
	for name, v := range raw {
		var s string
		if json.Unmarshal(v, &s) != nil {
			var list []string
			if json.Unmarshal(v, &list) != nil {
				return nil, fmt.Errorf("%s: %q: want a string or a list of strings", path, name)
			}
			s = strings.Join(list, " ")
		}
		out[name] = s
	}
	return out, nil
}

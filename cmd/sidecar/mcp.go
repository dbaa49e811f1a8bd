package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/internal/safefile"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/server"
	mcp "github.com/toolsearch/toolsearch/source/mcp"
)

// mcpLists are the repeatable --mcp flags.
type mcpLists struct {
	specs, envFiles, headerFiles, tokenFiles *listFlag
}

// mcpFlags registers the live MCP server flags.
func mcpFlags(fs *flag.FlagSet, c *config, getenv func(string) string,
	str func(*string, string, string, string), duration func(*time.Duration, string, time.Duration, string)) {
	list := func(name, sep, usage string) *listFlag {
		l := &listFlag{}
		if v := getenv(envName(name)); v != "" {
			l.set = strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune(sep, r) })
		}
		fs.Var(l, name, fmt.Sprintf("%s (env %s)", usage, envName(name)))
		return l
	}
	c.mcpLists = mcpLists{
		specs:       list("mcp", ";\n", "live MCP server NAME='COMMAND ARG…' (stdio; leading KEY=VALUE words are its environment) or NAME=https://host/mcp (streamable HTTP), repeatable; its tools are named NAME__TOOL and follow tools/list_changed (env: entries separated by ';' or newlines)"),
		envFiles:    list("mcp-env", ",", "NAME=FILE: KEY=VALUE lines added to the environment of stdio MCP server NAME, read at each start, repeatable (env: comma-separated)"),
		headerFiles: list("mcp-headers", ",", "NAME=FILE: 'Header: value' lines sent to HTTP MCP server NAME, read at each connect, repeatable (env: comma-separated)"),
		tokenFiles:  list("mcp-bearer-token-file", ",", "NAME=FILE: a bearer token sent to HTTP MCP server NAME as 'Authorization: Bearer TOKEN', read at each connect, repeatable (env: comma-separated)"),
	}
	str(&c.mcpConfig, "mcp-config", "", "YAML file listing MCP servers (servers: [{name, command | url, args, env, env_file, dir, headers, headers_file, bearer_token_file}]), added to --mcp")
	duration(&c.mcpTimeout, "mcp-timeout", mcp.DefaultListTimeout, "per MCP server bound on connecting and listing its tools; also how long a slow or dead server can delay readiness")
	duration(&c.mcpGrace, "mcp-grace-period", mcp.DefaultGracePeriod, "how long the tools of an MCP server that went away stay searchable before they are removed (it is reconnected meanwhile); 0s removes them at once")
}

// checkMCP builds the MCP server list from the flags and the config file.
func (c *config) checkMCP() error {
	var servers []mcp.ServerConfig
	for _, spec := range c.mcpLists.specs.values() {
		s, err := mcp.ParseSpec(spec)
		if err != nil {
			return err
		}
		servers = append(servers, s)
	}
	if c.mcpConfig != "" {
		data, err := safefile.ReadFile(c.mcpConfig, maxConfigFileBytes)
		if err != nil {
			return fmt.Errorf("--mcp-config: %w", err)
		}
		fromFile, err := mcp.ParseConfig(data, c.mcpConfig)
		if err != nil {
			return fmt.Errorf("--mcp-config: %w", err)
		}
		servers = append(servers, fromFile...)
	}
	byName := map[string]*mcp.ServerConfig{}
	for i := range servers {
		byName[servers[i].Name] = &servers[i]
	}
	files := []struct {
		flag string
		l    *listFlag
		set  func(*mcp.ServerConfig, string)
	}{
		{"--mcp-env", c.mcpLists.envFiles, func(s *mcp.ServerConfig, f string) { s.EnvFile = f }},
		{"--mcp-headers", c.mcpLists.headerFiles, func(s *mcp.ServerConfig, f string) { s.HeadersFile = f }},
		{"--mcp-bearer-token-file", c.mcpLists.tokenFiles, func(s *mcp.ServerConfig, f string) { s.BearerTokenFile = f }},
	}
	for _, fl := range files {
		for _, v := range fl.l.values() {
			name, file, ok := strings.Cut(v, "=")
			if !ok || file == "" {
				return fmt.Errorf("%s %q: want NAME=FILE", fl.flag, v)
			}
			s, ok := byName[name]
			if !ok {
				return fmt.Errorf("%s %q: no MCP server is named %q; name it with --mcp %s=…", fl.flag, v, name, name)
			}
			fl.set(s, file)
		}
	}
	for _, s := range servers {
		if err := s.Validate(); err != nil {
			return err
		}
	}
	if err := mcp.CheckNames(servers); err != nil {
		return err
	}
	for _, arg := range c.catalogs {
		if src := catalog.ParseSource(arg); src.Server != "" && byName[src.Server] != nil {
			return fmt.Errorf("--catalog %s and --mcp %s share the namespace %q; give one of them another name", arg, src.Server, src.Server)
		}
	}
	if c.mcpTimeout <= 0 {
		return fmt.Errorf("--mcp-timeout %v: use a positive duration such as 15s", c.mcpTimeout)
	}
	if c.mcpGrace < 0 {
		return fmt.Errorf("--mcp-grace-period %v: use 0s or a positive duration such as 2m", c.mcpGrace)
	}
	c.mcpServers = servers
	return nil
}

// engineCatalog lets the MCP manager change the engine's catalog.
type engineCatalog struct{ e *search.Engine }

func (c engineCatalog) Snapshot() *catalog.Snapshot { return c.e.Snapshot() }

func (c engineCatalog) Apply(ctx context.Context, upsert []catalog.Tool, del []string) (uint64, error) {
	r, err := c.e.Apply(ctx, upsert, del)
	return r.CatalogVersion, err
}

// startMCP starts the manager of the configured MCP servers and waits, at
// most --mcp-timeout (plus a second to apply what arrived), for each to be
// listed or to fail; a server that is not up by then is retried in the
// background and its tools arrive when it answers. It returns nil without
// servers.
func startMCP(ctx context.Context, cfg config, log *slog.Logger, engine *search.Engine, metrics *server.Metrics) (*mcp.Manager, error) {
	if len(cfg.mcpServers) == 0 {
		return nil, nil
	}
	grace := cfg.mcpGrace
	if grace == 0 {
		grace = -1 // the manager's "at once"
	}
	var obs mcp.Observer
	if m := metrics.MCP(); m != nil {
		obs = m
	}
	m, err := mcp.New(mcp.Config{
		Servers:     cfg.mcpServers,
		Catalog:     engineCatalog{engine},
		Log:         log,
		Observer:    obs,
		ListTimeout: cfg.mcpTimeout,
		GracePeriod: grace,
		Version:     version,
	})
	if err != nil {
		return nil, err
	}
	start := time.Now()
	m.Start()
	wctx, cancel := context.WithTimeout(ctx, cfg.mcpTimeout+time.Second)
	defer cancel()
	_ = m.WaitStartup(wctx)
	up := 0
	for _, st := range m.Status() {
		if st.State == mcp.StateUp {
			up++
		}
	}
	log.Info("mcp servers started", "servers", len(cfg.mcpServers), "up", up, "elapsed", time.Since(start).Round(time.Millisecond).String())
	return m, nil
}

// mcpStatus serves GET /statusz: the MCP servers' status once the manager
// runs, an empty list before (or without MCP servers), and the shared
// store's state with --store.
type mcpStatus struct {
	m     atomic.Pointer[mcp.Manager]
	store atomic.Pointer[fleetStore]
}

// descriptions are the live MCP servers' own descriptions (none before
// the manager runs), for the tool lists' system prompt.
func (h *mcpStatus) descriptions() map[string]string {
	if m := h.m.Load(); m != nil {
		return m.Descriptions()
	}
	return nil
}

func (h *mcpStatus) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	out := struct {
		Servers []mcp.ServerStatus `json:"mcp_servers"`
		Store   *storeStatus       `json:"store,omitempty"`
	}{Servers: []mcp.ServerStatus{}, Store: h.store.Load().status()}
	if m := h.m.Load(); m != nil {
		out.Servers = m.Status()
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(out)
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// defaultAddr is the sidecar's default listen address; TOOLSEARCH_ADDR
// overrides it.
const defaultAddr = "127.0.0.1:50051"

func addrFlag(fs *flag.FlagSet) *string {
	def := defaultAddr
	if v := os.Getenv("TOOLSEARCH_ADDR"); v != "" {
		def = v
	}
	return fs.String("addr", def, "sidecar address host:port (env TOOLSEARCH_ADDR)")
}

// tokenFlags are --token and --token-file: the bearer token of a sidecar
// started with --auth-token-file.
type tokenFlags struct{ token, file *string }

// newTokenFlags registers --token and --token-file on fs.
func newTokenFlags(fs *flag.FlagSet) tokenFlags {
	return tokenFlags{
		token: fs.String("token", os.Getenv("TOOLSEARCH_TOKEN"), "bearer token of a sidecar started with --auth-token-file (env TOOLSEARCH_TOKEN, which keeps it out of the process list)"),
		file:  fs.String("token-file", os.Getenv("TOOLSEARCH_TOKEN_FILE"), "file holding that token, such as the sidecar's own --auth-token-file; wins over --token (env TOOLSEARCH_TOKEN_FILE)"),
	}
}

// dial connects to the sidecar at addr, sending the token if one is set.
func (t tokenFlags) dial(addr string) (*toolsearch.Client, error) {
	token := *t.token
	if *t.file != "" {
		b, err := os.ReadFile(*t.file)
		if err != nil {
			return nil, fmt.Errorf("--token-file: %w", err)
		}
		token = strings.TrimSpace(string(b))
	}
	return toolsearch.Dial(addr, toolsearch.WithBearerToken(token))
}

// searchTypes maps the --type flag's values to the API's search types.
var searchTypes = map[string]toolsearchv1.SearchType{
	"default":  toolsearchv1.SearchType_SEARCH_TYPE_UNSPECIFIED,
	"semantic": toolsearchv1.SearchType_SEARCH_TYPE_SEMANTIC,
	"keyword":  toolsearchv1.SearchType_SEARCH_TYPE_KEYWORD,
	"regex":    toolsearchv1.SearchType_SEARCH_TYPE_REGEX,
}

func parseSearchType(s string) (toolsearchv1.SearchType, error) {
	t, ok := searchTypes[strings.ToLower(s)]
	if !ok {
		return 0, usageError{fmt.Sprintf("--type %q: use default, semantic, keyword or regex", s)}
	}
	return t, nil
}

func runSearch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("search", "QUERY", stderr)
	addr := addrFlag(fs)
	tokens := newTokenFlags(fs)
	typ := fs.String("type", "default", "search type: default, semantic, keyword or regex")
	max := fs.Int("max-results", 0, "maximum results (0 = the sidecar's default of 5)")
	category := fs.String("category", "", "only tools of this server or category")
	asJSON := fs.Bool("json", false, "print the reference-format JSON the agent hands to the model")
	debug := fs.Bool("debug", false, "explain how each result was scored")
	if err := parse(fs, args); err != nil {
		return err
	}
	st, err := parseSearchType(*typ)
	if err != nil {
		return err
	}
	query := strings.Join(fs.Args(), " ")
	c, err := tokens.dial(*addr)
	if err != nil {
		return err
	}
	defer c.Close()
	opts := []toolsearch.SearchOption{toolsearch.WithSearchType(st), toolsearch.WithMaxResults(*max), toolsearch.WithCategory(*category)}
	if *debug {
		opts = append(opts, toolsearch.WithDebug())
	}
	resp, err := c.Search(ctx, query, opts...)
	if err != nil {
		return rpcError(err, *addr)
	}
	if *asJSON {
		out, err := toolsearch.RenderResult(resp)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(stdout, out)
		return err
	}
	return printSearch(stdout, resp, *debug)
}

func printSearch(w io.Writer, resp *toolsearchv1.SearchResponse, debug bool) error {
	md := resp.GetSearchMetadata()
	shown, total := len(resp.GetToolReferences()), int(resp.GetTotalMatches())
	if shown <= total {
		fmt.Fprintf(w, "%d of %d matches (%s", shown, total, md.GetSearchType())
	} else {
		// A ranked answer that is not model-facing shows candidates under
		// the relevance floor too; total_matches counts those above it.
		fmt.Fprintf(w, "%d results, %d above the relevance floor (%s", shown, total, md.GetSearchType())
	}
	if md.GetFallbackReason() != "" {
		fmt.Fprintf(w, ", fell back from %s: %s", md.GetRequestedSearchType(), md.GetFallbackReason())
	}
	fmt.Fprintf(w, ", %d µs, catalog v%d)\n", md.GetExecutionTimeUs(), md.GetCatalogVersion())
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, r := range resp.GetToolReferences() {
		fmt.Fprintf(tw, "%.3f\t%s\t%s\n", r.GetRelevanceScore(), r.GetToolName(), r.GetSummary())
		if l := r.GetLearned(); l != nil {
			fmt.Fprintf(tw, "\t\tlifted by learning: %s, +%.3f (similarity %.2f, evidence %.2f)\n", l.GetSignal(), l.GetBoost(), l.GetSimilarity(), l.GetEvidence())
		}
		if debug && r.GetExplanation() != "" {
			fmt.Fprintf(tw, "\t\t%s\n", r.GetExplanation())
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if resp.GetHint() != "" {
		fmt.Fprintf(w, "hint: %s\n", resp.GetHint())
	}
	if resp.GetNextPageToken() != "" {
		fmt.Fprintf(w, "next page token: %s\n", resp.GetNextPageToken())
	}
	return nil
}

func runList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("list", "", stderr)
	addr := addrFlag(fs)
	tokens := newTokenFlags(fs)
	server := fs.String("server", "", "only tools of this server")
	size := fs.Int("page-size", 0, "tools per page (0 = the sidecar's default of 50)")
	token := fs.String("page-token", "", "continue from a previous page's token")
	asJSON := fs.Bool("json", false, "print the response as JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	c, err := tokens.dial(*addr)
	if err != nil {
		return err
	}
	defer c.Close()
	resp, err := c.ListTools(ctx, *server, *token, *size)
	if err != nil {
		return rpcError(err, *addr)
	}
	if *asJSON {
		return printProto(stdout, resp)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, t := range resp.GetTools() {
		fmt.Fprintf(tw, "%s\t%s\n", t.GetName(), t.GetSummary())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d of %d tools, catalog v%d\n", len(resp.GetTools()), resp.GetTotalSize(), resp.GetCatalogVersion())
	if resp.GetNextPageToken() != "" {
		fmt.Fprintf(stdout, "next page: --page-token %s\n", resp.GetNextPageToken())
	}
	return nil
}

func runGet(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("get", "NAME...", stderr)
	addr := addrFlag(fs)
	tokens := newTokenFlags(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError{"give one or more exact tool names"}
	}
	c, err := tokens.dial(*addr)
	if err != nil {
		return err
	}
	defer c.Close()
	tools, err := c.GetTools(ctx, fs.Args()...)
	if err != nil {
		return rpcError(err, *addr)
	}
	return printTools(stdout, tools)
}

// printedTool is a tool as get prints it: the schema and annotations as
// JSON objects, not as strings holding JSON.
type printedTool struct {
	Name        string          `json:"name"`
	Server      string          `json:"server,omitempty"`
	Category    string          `json:"category,omitempty"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
}

// printTools prints tools as an indented JSON array.
func printTools(w io.Writer, tools []*toolsearchv1.Tool) error {
	out := make([]printedTool, len(tools))
	for i, t := range tools {
		out[i] = printedTool{Name: t.GetName(), Server: t.GetServer(), Category: t.GetCategory(), Description: t.GetDescription()}
		if s := t.GetInputSchema(); json.Valid([]byte(s)) {
			out[i].InputSchema = json.RawMessage(s)
		} else {
			out[i].InputSchema, _ = json.Marshal(s)
		}
		if a := t.GetAnnotations(); a != "" && json.Valid([]byte(a)) {
			out[i].Annotations = json.RawMessage(a)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// rpcError makes a call's error say what to do, without gRPC's "rpc
// error: code = … desc = …" wrapping: the sidecar's message, and its code
// when that helps. When nothing listens at addr, it says how to start a
// sidecar; when the sidecar wants a token, how to give one.
func rpcError(err error, addr string) error {
	st, ok := status.FromError(err)
	switch {
	case !ok:
		return err
	case st.Code() == codes.Unavailable && strings.Contains(st.Message(), "connection refused"):
		return fmt.Errorf("nothing listens at %s: start a sidecar there (make run, or go run ./cmd/sidecar --catalog FILE --listen %s), or point --addr (env TOOLSEARCH_ADDR) at a running one", addr, addr)
	case st.Code() == codes.Unauthenticated:
		return fmt.Errorf("%s: the sidecar at %s wants its bearer token; give it with --token-file FILE (its --auth-token-file) or TOOLSEARCH_TOKEN", st.Message(), addr)
	case st.Code() == codes.InvalidArgument || st.Code() == codes.NotFound:
		return errors.New(st.Message())
	}
	return fmt.Errorf("%s (%s)", st.Message(), st.Code())
}

func printProto(w io.Writer, m proto.Message) error {
	b, err := protojson.MarshalOptions{Multiline: true, Indent: "  ", UseProtoNames: true}.Marshal(m)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(b))
	return err
}

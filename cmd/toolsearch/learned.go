package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/learn"
)

// runLearned shows, exports or resets what a running sidecar learned from
// use (it runs with --learn).
func runLearned(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("learned", "[TOOL]", stderr)
	addr := addrFlag(fs)
	tokens := newTokenFlags(fs)
	reset := fs.Bool("reset", false, "forget what TOOL learned")
	resetAll := fs.Bool("reset-all", false, "forget everything the sidecar learned")
	export := fs.Bool("export", false, "print the learned state as JSONL (the format of --learn-from and the cache directory's learned.jsonl)")
	asJSON := fs.Bool("json", false, "print the GetLearned response as JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usageError{"give at most one tool name"}
	}
	tool := fs.Arg(0)
	switch {
	case *reset && tool == "":
		return usageError{"--reset needs the TOOL whose learned state to forget (or use --reset-all)"}
	case *resetAll && tool != "":
		return usageError{"--reset-all forgets every tool's learned state: give no TOOL"}
	}
	c, err := tokens.dial(*addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if *reset || *resetAll {
		resp, err := c.Raw().ResetLearned(ctx, &toolsearchv1.ResetLearnedRequest{ToolName: tool, All: *resetAll})
		if err != nil {
			return rpcError(err, *addr)
		}
		_, err = fmt.Fprintf(stdout, "forgot what %d tools learned\n", resp.GetTools())
		return err
	}
	resp, err := c.Raw().GetLearned(ctx, &toolsearchv1.GetLearnedRequest{ToolName: tool})
	if err != nil {
		return rpcError(err, *addr)
	}
	switch {
	case *export:
		enc := json.NewEncoder(stdout)
		now := time.Now().UTC()
		for _, t := range resp.GetTools() {
			for _, q := range t.GetQueries() {
				// Weights are as of now (decayed by the sidecar).
				if err := enc.Encode(learn.Record{Scope: t.GetScope(), Tool: t.GetToolName(), Query: q.GetQuery(), Weight: q.GetWeight(), At: now,
					Sessions: int(t.GetSessions()), ScopeSessions: int(t.GetScopeSessions())}); err != nil {
					return err
				}
			}
		}
		return nil
	case *asJSON:
		return printProto(stdout, resp)
	}
	if !resp.GetLearning() {
		fmt.Fprintln(stderr, "note: the sidecar does not learn from use (start it with --learn)")
	}
	pin := resp.GetPin().GetEnabled()
	if p := resp.GetPin(); pin {
		fmt.Fprintf(stdout, "pinning: a tool used by at least %d sessions, and by at least %.0f%% of its scope's sessions with %.0f%% confidence, is always loaded (at most %d per scope)\n",
			p.GetMinSessions(), 100*p.GetShare(), 100*learn.PinConfidenceLevel, p.GetMaxPerScope())
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, t := range resp.GetTools() {
		scope := ""
		if t.GetScope() != "" {
			scope = "\tscope " + t.GetScope()
		}
		pinned := ""
		if t.GetPinned() {
			pinned = "\tpinned by learning"
		}
		// With pinning, the share the rule compares: its lower bound.
		share := ""
		if pin {
			share = fmt.Sprintf(" (at least %.0f%% with %.0f%% confidence)", 100*learn.PinShareBound(int(t.GetSessions()), int(t.GetScopeSessions())), 100*learn.PinConfidenceLevel)
		}
		fmt.Fprintf(tw, "%s\tweight %.2f\t%d queries\t%d of %d sessions%s%s%s\n", t.GetToolName(), t.GetWeight(), len(t.GetQueries()),
			t.GetSessions(), t.GetScopeSessions(), share, pinned, scope)
		for _, q := range t.GetQueries() {
			fmt.Fprintf(tw, "\t%.2f\t%s\n", q.GetWeight(), q.GetQuery())
		}
	}
	return tw.Flush()
}

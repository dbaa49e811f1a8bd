// Command toolsearch is the command-line tool of toolsearch: it searches,
// lists and reads tools on a running sidecar, and evaluates or benchmarks
// the search engine on labelled data.
//
//	toolsearch search --addr 127.0.0.1:50051 [--type T] [--max N] [--json] QUERY
//	toolsearch list   --addr A [--server S] [--page-size N] [--page-token T]
//	toolsearch get    --addr A NAME...
//	toolsearch eval   --catalog F --queries F [--type T] [--json] [--addr A] [--learn-from F | --split even|odd]
//	toolsearch bench  (--catalog F | --synthetic N | --addr A) [--type T] [--concurrency C] [--duration D] [--requests N] [--json]
//	toolsearch learned --addr A [TOOL] [--reset | --reset-all | --export | --json]
//
// Run "toolsearch COMMAND --help" for a command's flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// command is one subcommand: it parses its own flags from args, writes its
// output to stdout and notes to stderr.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"search", "search a running sidecar and print the reference format", runSearch},
		{"list", "list the tools of a running sidecar, paged", runList},
		{"get", "print the full definitions of tools by exact name", runGet},
		{"eval", "measure recall@k, nDCG@10 and MRR on a labelled query file", runEval},
		{"bench", "measure latency, throughput, start-up, memory and HNSW recall", runBench},
		{"learned", "show, export or reset what a sidecar learned from use", runLearned},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the process exit code: 0 on
// success, 1 when the command failed, 2 for a usage error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(ctx, args[1:], stdout, stderr)
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, new(usageError)):
			fmt.Fprintf(stderr, "toolsearch %s: %v\n", c.name, err)
			return 2
		default:
			fmt.Fprintf(stderr, "toolsearch %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "toolsearch: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: toolsearch COMMAND [flags] [args]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-7s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun \"toolsearch COMMAND --help\" for a command's flags.")
}

// usageError is a command line the user must change.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// newFlags returns a flag set for a command that reports errors instead of
// exiting, and prints its usage to stderr.
func newFlags(name, args string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: toolsearch %s [flags] %s\n\nflags:\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses flags, turning a bad flag into a usageError.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err.Error()}
	}
	return nil
}

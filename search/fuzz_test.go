package search_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand"
	"sync"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/search"
)

// fuzzServers and fuzzWords are what fuzzCatalog builds tools from: server
// names that are also everyday words, and the words of names and
// descriptions.
var (
	fuzzServers = []string{"slack", "jira", "github", "weather", "git", "google-calendar", "a"}
	fuzzWords   = []string{"send", "message", "create", "issue", "get", "forecast", "list", "channels", "add", "log", "search", "the", "a", "of", "weather", "slack", "jira"}
)

// fuzzCatalog builds a small catalog (1–8 tools) from seed, its tools named
// in every way hosts write them: mcp__SERVER__tool, SERVER__tool,
// SERVER.tool, SERVER/tool and a bare name, with or without a server field.
func fuzzCatalog(seed int64) (*catalog.Snapshot, error) {
	r := rand.New(rand.NewSource(seed))
	n := 1 + r.Intn(8)
	seen := map[string]bool{}
	var tools []catalog.Tool
	for range n {
		server := fuzzServers[r.Intn(len(fuzzServers))]
		local := fuzzWords[r.Intn(len(fuzzWords))] + "_" + fuzzWords[r.Intn(len(fuzzWords))]
		var name string
		switch r.Intn(5) {
		case 0:
			name = "mcp__" + server + "__" + local
		case 1:
			name = server + "__" + local
		case 2:
			name = server + "." + local
		case 3:
			name = server + "/" + local
		default:
			name = local
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		t := catalog.Tool{Name: name, Description: fmt.Sprintf("%s the %s %s.", fuzzWords[r.Intn(len(fuzzWords))], fuzzWords[r.Intn(len(fuzzWords))], fuzzWords[r.Intn(len(fuzzWords))])}
		if r.Intn(3) == 0 {
			t.Server = server
		}
		if r.Intn(4) == 0 {
			t.Category = fuzzWords[r.Intn(len(fuzzWords))]
		}
		tools = append(tools, t)
	}
	return catalog.NewSnapshot(tools)
}

var (
	fuzzEmbedderOnce sync.Once
	fuzzEmbedder     embed.Embedder
	fuzzEmbedderErr  error
)

// FuzzSearch searches random queries, operators included, over small random
// catalogs named the ways hosts name tools, in every mode, with and without
// a visible set: a search never panics, fails only with ErrInvalidArgument,
// and keeps the reference format's contract (scores in [0, 1], sorted,
// ties by name, at most max_results unless select:, only visible tools, no
// more model-facing results than total_matches).
func FuzzSearch(f *testing.F) {
	for _, s := range []struct {
		seed  int64
		query string
	}{
		{1, "create issue -jira"}, {2, "server:slack"}, {3, "+slack message"}, {4, "select:git__add, git__log"},
		{5, "a"}, {6, "???"}, {7, "weather__get_*"}, {8, "^git__(add|commit)$"}, {9, "wether"}, {10, "-jira -slack"},
		{11, "+"}, {12, "the a of"}, {13, `"mcp__slack__send_message"`}, {14, "category:send get"}, {15, "select: x"},
		// The no-match rules' parsers: an opening verb, an object with a
		// message's text, a longer task of several steps.
		{16, "let's archive the slack message"}, {17, "please,forward the jira issue that the fix is deployed: done"},
		{18, "The sprint is over. Archive the slack channels, delete the jira issue and forward the weather forecast to the github log."},
		{19, `server:slack -jira archive the "old" channel category:"x y`},
		{20, "record of the jira issue, then of"}, {21, `I'm done. replace "a b" with 'c and d' in the log`},
		// The fifth round's rules: a named thing, a yes/no question about
		// one's own things, a causative, a support verb, a hyphen's prefix.
		{22, "get me a Lyft from the Ferry Building"}, {23, "Has my jira issue been archived yet?"},
		{24, "get my slack message forwarded"}, {25, "make a call"}, {26, "e-file it"}, {27, "Additionally, dm"},
		// The seventh round's: a server's name first, a command, short
		// forms, a phone number, coordinates, several steps, the past.
		{28, "slack push branch to origin"}, {29, "mkdir ~/x and chmod 755 it"}, {30, "list PRs in the repo, e-mail the AAs"},
		{31, "text +49 170 1234567 that 555-0199 or (415) 555-0100"}, {32, "what is at 48.8584, 2.2945? lat/long"},
		{33, "I'm in Lisbon. check x and, if it's sunny, book y and then e-sign it"}, {34, "what was the historical jira issue"},
		// The ninth session's: a request on data, an SQL statement, a
		// booking at a time, a support verb, a later step naming a server.
		{35, "how many rows in the orders table"}, {36, "why slow: SELECT * FROM x WHERE"}, {37, "UPDATE"},
		{38, "invite bob to a review on Friday at 3"}, {39, "leave a comment saying"}, {40, "check x and post it on slack"},
		// The tenth session's: a causative's particle, "have" and a
		// subject, an indirect object, a phrasal verb with a pronoun, a
		// request to see, giving back, an issue key and a URL.
		{41, "have"}, {42, "have I"}, {43, "get it tuned up"}, {44, "give my x a"}, {45, "sign me up"}, {46, "sign me"},
		{47, "call off"}, {48, "find x and react to it"}, {49, "return the I bought"}, {50, "move OPS-7 into https://x.io"},
		// The eleventh session's: the unserved place (a naming word, a
		// head after "new", message text after a colon), a later step
		// searched alone and its values, colloquial reads, a path or an
		// issue key alone, a short form, coordinates.
		{51, "create a new issue called"}, {52, "create a new called x"}, {53, "update my slack channel: called new"},
		{54, "get https://x.io/a.csv and send it to ~/a/b.txt and log it to #general"}, {55, "x and save it to /"},
		{56, "pull up"}, {57, "grab the issue and"}, {58, "What's in ~/?"}, {59, "OPS-1"}, {60, "comment on the PR"},
		{61, "what address is 1.5, -2.5"},
		// The fourteenth session's: a thing made, a server's name as a
		// modifier, a later step's pronoun, a message on a tracker's item,
		// a yes-no question.
		{62, "make a new"}, {63, "start a git x"}, {64, "read OPS-1 and then delete it"}, {65, "tell them on PR #9 that"},
		{66, "is it possible to"}, {67, "any"}, {68, "x and it"},
		// The fifteenth session's: a light verb with an action's noun, a
		// colloquial get or action, values put in a place, a thing of
		// another server, a named table, a time phrase, a question word.
		{69, "drop a comment on"}, {70, "post a"}, {71, "dig out"}, {72, "grab"}, {73, "throw away the"},
		{74, "nuke"}, {75, "spin up a x of"}, {76, "add OPS-1 to the current"}, {77, "schedule a slack to"},
		{78, "bump the x in the y table"}, {79, "in the"}, {80, "at the moment?"}, {81, "why"}, {82, "Ähm, grab ü"},
		// The sixteenth session's: a destroying verb asked or not (a
		// synonym of two words), a bare place, "of", a step's complement,
		// which-one words, a message carrying a step's thing, hedges, a
		// command named to run with its values.
		{83, "call off"}, {84, "get rid of the"}, {85, "move OPS-1 to blocked"}, {86, "change the x of"},
		{87, "create x, label it"}, {88, "find x and reply to the newest one"}, {89, "read OPS-1 and post a summary of it to"},
		{90, "anywhere decent still open"}, {91, "close x using the command y /s /t 0"},
	} {
		f.Add(s.seed, s.query, uint8(0))
	}
	fuzzEmbedderOnce.Do(func() { fuzzEmbedder, fuzzEmbedderErr = embed.NewBuiltin() })
	if fuzzEmbedderErr != nil {
		f.Fatal(fuzzEmbedderErr)
	}
	f.Fuzz(func(t *testing.T, seed int64, query string, opts uint8) {
		snap, err := fuzzCatalog(seed)
		if err != nil {
			t.Skip(err) // a catalog the generator cannot make valid is not the engine's input
		}
		e, err := search.New(snap, search.Config{Embedder: fuzzEmbedder, Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := e.WaitIndexed(ctx); err != nil {
			t.Fatal(err)
		}
		var visible []string
		if opts&1 != 0 {
			visible = []string{snap.Tool(0).Name}
		}
		if opts&2 != 0 && snap.Tool(0).Server != "" {
			visible = append(visible, "server:"+snap.Tool(0).Server)
		}
		allowed := map[string]bool{}
		for _, t := range snap.Tools() {
			allowed[t.Name] = len(visible) == 0 || t.Name == snap.Tool(0).Name || (opts&2 != 0 && t.Server == snap.Tool(0).Server && t.Server != "")
		}
		limit := 1 + int(opts>>4)%5
		for _, mode := range []search.Mode{search.ModeDefault, search.ModeSemantic, search.ModeKeyword, search.ModeRegex} {
			forModel := opts&128 != 0
			res, err := e.Search(ctx, search.Request{Query: query, Mode: mode, MaxResults: limit, Visible: visible, SessionID: "fuzz", TopBand: float64(opts>>2&3) / 4, ForModel: forModel})
			if err != nil {
				if !errors.Is(err, search.ErrInvalidArgument) {
					t.Fatalf("%s %q: error %v is not ErrInvalidArgument", mode, query, err)
				}
				continue
			}
			checkResult(t, mode, query, res, limit, allowed, forModel)
		}
	})
}

// checkResult checks the reference format's contract on one result.
func checkResult(t *testing.T, mode search.Mode, query string, res search.Result, limit int, allowed map[string]bool, forModel bool) {
	t.Helper()
	selected := res.Metadata.SearchType == search.ModeSelect
	if !selected && len(res.References) > limit {
		t.Fatalf("%s %q: %d results, max_results %d", mode, query, len(res.References), limit)
	}
	for i, r := range res.References {
		if math.IsNaN(r.Score) || r.Score < 0 || r.Score > 1 {
			t.Fatalf("%s %q: %s scores %v", mode, query, r.Name, r.Score)
		}
		if !allowed[r.Name] {
			t.Fatalf("%s %q: %s is outside the visible set", mode, query, r.Name)
		}
		if i > 0 && !selected {
			prev := res.References[i-1]
			if r.Score > prev.Score || r.Score == prev.Score && r.Name < prev.Name {
				t.Fatalf("%s %q: %s (%v) after %s (%v): not sorted by score, then name", mode, query, r.Name, r.Score, prev.Name, prev.Score)
			}
		}
	}
	if forModel && res.TotalMatches < len(res.References) && !selected {
		t.Fatalf("%s %q: total_matches %d < %d results", mode, query, res.TotalMatches, len(res.References))
	}
}

// TestFilterThatExcludesNothing is the query that FuzzSearch found: on a
// catalog named the Claude Code way, "-jira" names no word of the catalog's
// text, so the query has a filter that keeps every tool; fusion must not
// dereference the nil filter (it answered INTERNAL).
func TestFilterThatExcludesNothing(t *testing.T) {
	snap, err := catalog.NewSnapshot([]catalog.Tool{
		{Name: "mcp__slack__send_message", Description: "Send a message to a Slack channel."},
		{Name: "mcp__jira__create_issue", Description: "Create an issue."},
	})
	if err != nil {
		t.Fatal(err)
	}
	e := newSemanticEngine(t, snap)
	for _, mode := range []search.Mode{search.ModeDefault, search.ModeSemantic, search.ModeKeyword, search.ModeRegex} {
		t.Run(string(mode), func(t *testing.T) {
			res, err := e.Search(context.Background(), search.Request{Query: "create issue -jira", Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, mode, "create issue -jira", res, search.DefaultMaxResults, map[string]bool{"mcp__slack__send_message": true, "mcp__jira__create_issue": true}, false)
		})
	}
}

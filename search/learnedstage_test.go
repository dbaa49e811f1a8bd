package search

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/evaluation"
	"github.com/toolsearch/toolsearch/evaluation/evaltest"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/learn"
	"go.uber.org/goleak"
)

// The learned stage's lexical half run on a goroutine of its own beside
// the catalog's candidates (beginLearned) gives every search the result
// it gives run in line, bit for bit: bfcl's catalog, taught with the even
// half of its queries, searched with the odd half in every mode that has
// a learned stage, with explanations.
func TestLearnedAheadIsInline(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // a goroutine beside the search needs a second P
	}
	tools, err := catalog.Load(catalog.Source{Path: evaltest.Bench(t, "bfcl/tools.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	qs, err := evaluation.LoadQueries(evaltest.Bench(t, "bfcl/queries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	learnQs, evalQs := evaluation.Split(qs)
	emb, err := embed.NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	e := learnedEngine(t, tools, emb, LearnConfig{Store: learn.NewStore(learn.Config{})})
	ctx := context.Background()
	for _, q := range learnQs {
		s := "learn-" + q.ID
		if _, err := e.Search(ctx, Request{Query: q.Query, SessionID: s, MaxResults: 10}); err != nil {
			t.Fatal(err)
		}
		for _, tool := range q.Relevant {
			if _, err := e.ReportToolUse(ctx, ToolUse{SessionID: s, Tool: tool, Outcome: OutcomeSuccess}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := e.RefreshLearned(ctx); err != nil {
		t.Fatal(err)
	}

	// The stage of a request with words starts its goroutine; one behind
	// a pattern does not.
	st := e.state.Load()
	p, err := st.newPlan(Request{Query: evalQs[0].Query, MaxResults: 10}, e.limits())
	if err != nil {
		t.Fatal(err)
	}
	e.learner.inline.Store(0) // no backoff (aheadBackoff) from the teaching searches
	if ls := e.beginLearned(st, p, true); ls == nil || ls.done == nil {
		t.Fatalf("beginLearned(ahead) = %+v, want a stage with its goroutine", ls)
	} else {
		ls.end()
	}
	if ls := e.beginLearned(st, p, false); ls == nil || ls.done != nil {
		t.Fatalf("beginLearned(in line) = %+v, want a stage without a goroutine", ls)
	}

	// With the request's vector cached, the goroutine screens the
	// learned vectors too.
	if _, err := e.Search(ctx, Request{Query: evalQs[0].Query, MaxResults: 10}); err != nil {
		t.Fatal(err)
	}
	e.learner.inline.Store(0)
	if ls := e.beginLearned(st, p, true); ls == nil {
		t.Fatal("no learned stage")
	} else if a := ls.sighted(); a == nil || a.rows == nil || a.pv == nil {
		t.Fatalf("the stage's vector half ahead = %+v, want its screens", a)
	}

	search := func(req Request, serial bool) Result {
		t.Helper()
		e.learner.serial = serial
		e.learner.inline.Store(0) // ahead means ahead, whatever the last search found
		res, err := e.Search(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		res.Metadata.Elapsed, res.Metadata.Stages = 0, Stages{}
		return res
	}
	lifted := 0
	for _, mode := range []Mode{ModeDefault, ModeSemantic, ModeKeyword} {
		for _, q := range evalQs {
			req := Request{Query: q.Query, Mode: mode, MaxResults: 10, Debug: true}
			var ahead, inline Result
			for {
				// The same learned index for both (the background
				// rebuild may swap it, with evidence decayed a little
				// further).
				ixs := e.learner.index.Load()
				ahead, inline = search(req, false), search(req, true)
				if e.learner.index.Load() == ixs {
					break
				}
			}
			if diff := cmp.Diff(inline, ahead); diff != "" {
				t.Fatalf("mode %q, query %q (-in line +ahead):\n%s", mode, q.Query, diff)
			}
			for _, r := range ahead.References {
				if r.Learned != nil {
					lifted++
					break
				}
			}
		}
	}
	if lifted < len(evalQs) {
		t.Errorf("%d searches of %d lifted a tool: the learned stage barely ran", lifted, 3*len(evalQs))
	}
}

// cancelOnQuery is a fault-injecting embedder in front of a real one: once
// armed, embedding a query cancels the search's context first, as a client
// that goes away while its query is embedded.
type cancelOnQuery struct {
	embed.Embedder
	cancel atomic.Pointer[context.CancelFunc]
}

func (c *cancelOnQuery) Embed(ctx context.Context, kind embed.Kind, texts []string) ([][]float32, error) {
	if f := c.cancel.Load(); f != nil && kind == embed.Query {
		(*f)()
		return nil, ctx.Err()
	}
	return c.Embedder.Embed(ctx, kind, texts)
}

// A search cancelled while its learned stage's lexical half runs beside
// it returns the context's error, and leaves no goroutine behind.
func TestLearnedAheadCancelled(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	builtin, err := embed.NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	emb := &cancelOnQuery{Embedder: builtin}
	tools := []Tool{
		{Name: "notion__append_block", Server: "notion", Description: "Interact with the Notion API."},
		{Name: "docs__write_page", Server: "docs", Description: "Write a page of text to a document."},
	}
	e := learnedEngine(t, tools, emb, LearnConfig{Store: learn.NewStore(learn.Config{}), Sync: true})
	ctx := context.Background()
	for _, s := range []string{"s1", "s2"} {
		if _, err := e.Search(ctx, Request{Query: "save my meeting minutes", SessionID: s, MaxResults: 10}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.ReportToolUse(ctx, ToolUse{SessionID: s, Tool: tools[0].Name, Outcome: OutcomeSuccess}); err != nil {
			t.Fatal(err)
		}
	}
	st := e.state.Load()
	p, err := st.newPlan(Request{Query: "keep the minutes of my meeting", MaxResults: 10}, e.limits())
	if err != nil {
		t.Fatal(err)
	}
	e.learner.inline.Store(0)
	if ls := e.beginLearned(st, p, true); ls == nil || ls.done == nil {
		t.Fatalf("beginLearned(ahead) = %+v, want a stage with its goroutine", ls)
	} else {
		ls.end()
	}

	before := goleak.IgnoreCurrent()
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	emb.cancel.Store(&cancel)
	e.learner.inline.Store(0)
	if _, err := e.Search(cctx, Request{Query: "keep the minutes of my meeting", MaxResults: 10}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Search = %v, want %v", err, context.Canceled)
	}
	emb.cancel.Store(nil)
	goleak.VerifyNone(t, before)
}

// A search that finds its learned stage's goroutine unfinished when it
// needs its work has the next aheadBackoff searches run the stage in line;
// one that finds it done does not.
func TestLearnedAheadBacksOff(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	l := &learner{}
	done := &learnedStage{l: l, done: make(chan struct{})}
	close(done.done)
	done.join()
	if n := l.inline.Load(); n != 0 {
		t.Fatalf("after a finished goroutine, %d searches in line, want 0", n)
	}

	late := &learnedStage{l: l, done: make(chan struct{})}
	joined := make(chan struct{})
	go func() {
		defer close(joined)
		late.join()
	}()
	testenv.WaitFor(t, "the search to find its goroutine unfinished", func() bool { return l.inline.Load() > 0 })
	close(late.done)
	<-joined
	if n := l.inline.Load(); n != aheadBackoff {
		t.Fatalf("after an unfinished goroutine, %d searches in line, want %d", n, aheadBackoff)
	}
	for i := range aheadBackoff {
		if l.runsAhead() {
			t.Fatalf("search %d of the backoff runs ahead", i)
		}
	}
	if !l.runsAhead() {
		t.Fatal("the search after the backoff does not run ahead")
	}
}

// TestLearnedAheadPanicReachesSearch: a panic on the learned stage's
// goroutine is raised again on the search's goroutine when it waits for
// the stage (join, or end when it never joined), once, instead of ending
// the process: there the server's recovery answers the call with an error.
func TestLearnedAheadPanicReachesSearch(t *testing.T) {
	for _, wait := range []string{"join", "end"} {
		ls := &learnedStage{l: &learner{}}
		ls.goAhead(func() { panic("boom") })
		got := func() (r any) {
			defer func() { r = recover() }()
			if wait == "join" {
				ls.join()
			} else {
				ls.end()
			}
			return nil
		}()
		if got != "boom" {
			t.Errorf("%s: recovered %v, want the goroutine's panic %q", wait, got, "boom")
		}
		ls.end() // raised once: the search's deferred end does not panic again
	}
	ls := &learnedStage{l: &learner{}}
	ls.goAhead(func() {})
	ls.join()
	ls.end()
}

// learnedEngine returns an engine over tools with emb and learning lc,
// indexed, closed when t ends.
func learnedEngine(t testing.TB, tools []Tool, emb embed.Embedder, lc LearnConfig) *Engine {
	t.Helper()
	e, err := NewFromTools(tools, Config{Embedder: emb, Learn: lc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	if err := e.WaitIndexed(context.Background()); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestLearnedAheadBacksOffWhenLate: a search whose goroutine finished
// before its work was needed still runs the next aheadBackoff searches'
// stage in line when the goroutine began late (aheadLateStart), and not
// when it began in time.
func TestLearnedAheadBacksOffWhenLate(t *testing.T) {
	l := &learner{}
	for _, late := range []bool{false, true} {
		l.inline.Store(0)
		ls := &learnedStage{l: l, done: make(chan struct{}), late: late}
		close(ls.done) // finished
		ls.join()
		want := int32(0)
		if late {
			want = aheadBackoff
		}
		if got := l.inline.Load(); got != want {
			t.Errorf("late %v: %d searches to run in line, want %d", late, got, want)
		}
	}
}

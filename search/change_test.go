package search_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/embed/embedtest"
	"github.com/toolsearch/toolsearch/search"
)

func TestApplyIsOneVersionAndEmbedsOnlyChangedTools(t *testing.T) {
	c := &embedtest.Counting{Inner: builtin(t)}
	snap := loadSnapshot(t, exampleCatalog)
	e := newEngine(t, snap, search.Config{Embedder: c})
	waitIndexed(t, e)
	c.Seen()
	v0 := e.Info().CatalogVersion
	alerts, _ := snap.Get("weather__get_alerts")
	changed := alerts[0]
	changed.Description = "Get severe weather warnings such as hurricanes and tornadoes for a region."
	gone := snap.Tool(1).Name
	unchanged := snap.Tool(0)
	res, err := e.Apply(context.Background(),
		[]search.Tool{changed, {Name: "pager__page_oncall", Description: "Page the on-call engineer."}, unchanged},
		[]string{gone})
	if err != nil {
		t.Fatal(err)
	}
	want := search.ChangeResult{CatalogVersion: v0 + 1, Inserted: 1, Updated: 1, Deleted: 1, ToolCount: snap.Len()}
	if res != want {
		t.Errorf("Apply = %+v, want %+v", res, want)
	}
	seen := c.Seen()
	if len(seen) != 2 || !strings.Contains(strings.Join(seen, " "), "hurricanes") || !strings.Contains(strings.Join(seen, " "), "on-call") {
		t.Errorf("Apply embedded %d texts %q, want only the 2 new or changed tools", len(seen), seen)
	}
	if _, _, err := e.Get([]string{gone}); !errors.Is(err, search.ErrNotFound) {
		t.Errorf("Get(%s) after delete = %v, want ErrNotFound", gone, err)
	}
	// An empty change is no change.
	if res, err := e.Apply(context.Background(), nil, nil); err != nil || res.CatalogVersion != v0+1 {
		t.Errorf("empty Apply = %+v, %v; want version %d unchanged", res, err, v0+1)
	}
	// A bad change changes nothing.
	if _, err := e.Apply(context.Background(), []search.Tool{{Name: "ok__tool"}}, []string{"no__such"}); !errors.Is(err, search.ErrNotFound) {
		t.Errorf("Apply with an unknown delete = %v, want ErrNotFound", err)
	}
	if _, err := e.Apply(context.Background(), []search.Tool{{Name: "bad name"}}, nil); !errors.Is(err, search.ErrInvalidArgument) {
		t.Errorf("Apply with a bad name = %v, want ErrInvalidArgument", err)
	}
	if info := e.Info(); info.CatalogVersion != v0+1 || info.IndexedTools != snap.Len() {
		t.Errorf("after failed changes: version %d, %d indexed; want %d, %d", info.CatalogVersion, info.IndexedTools, v0+1, snap.Len())
	}
	if seen := c.Seen(); len(seen) != 0 {
		t.Errorf("failed changes embedded %q", seen)
	}
}

// signalling tells on entered when a document embedding starts.
type signalling struct {
	embed.Embedder
	entered chan struct{}
}

func (s signalling) Embed(ctx context.Context, kind embed.Kind, texts []string) ([][]float32, error) {
	if kind == embed.Document {
		select {
		case s.entered <- struct{}{}:
		default:
		}
	}
	return s.Embedder.Embed(ctx, kind, texts)
}

// An upsert waiting on the embedder does not hold the writers' lock: a
// change applied meanwhile completes, and the upsert then lands on top of
// it with its vector.
func TestApplyEmbedsBeforeTakingTheWritersLock(t *testing.T) {
	faulty := &embedtest.Faulty{Inner: builtin(t)}
	emb := signalling{Embedder: faulty, entered: make(chan struct{}, 1)}
	snap := loadSnapshot(t, exampleCatalog)
	e := newEngine(t, snap, search.Config{Embedder: emb})
	waitIndexed(t, e)
	v0 := e.Info().CatalogVersion
	release := faulty.HoldDocuments()
	defer release()
	upserted := make(chan error, 1)
	go func() {
		_, err := e.Upsert(context.Background(), []search.Tool{{Name: "pager__page_oncall", Description: "Page the on-call engineer."}})
		upserted <- err
	}()
	<-emb.entered // the upsert is now waiting on the embedder
	gone := snap.Tool(1).Name
	if _, err := e.Delete(context.Background(), []string{gone}); err != nil {
		t.Fatalf("Delete while an upsert embeds: %v", err)
	}
	release()
	if err := <-upserted; err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	info := e.Info()
	if info.CatalogVersion != v0+2 || info.ToolCount != snap.Len() || info.IndexedTools != snap.Len() {
		t.Errorf("after delete then upsert: version %d, %d tools, %d indexed; want %d, %d, %d",
			info.CatalogVersion, info.ToolCount, info.IndexedTools, v0+2, snap.Len(), snap.Len())
	}
}

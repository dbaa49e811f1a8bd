package search_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/catalog"
	"github.com/toolsearch/toolsearch/embed/embedtest"
	"github.com/toolsearch/toolsearch/internal/logbuf"
	"github.com/toolsearch/toolsearch/internal/testenv"
	"github.com/toolsearch/toolsearch/search"
	"github.com/toolsearch/toolsearch/vectorindex"
)

// TestSavedIndexRestart: the built index is saved, and a restart over a
// changed catalog loads it — unchanged tools embed nothing, the changed
// and new ones are embedded, results are the same as a fresh build — and a
// corrupt file is ignored with a log line.
func TestSavedIndexRestart(t *testing.T) {
	dir := t.TempDir()
	snap := loadSnapshot(t, exampleCatalog)
	var log logbuf.Buffer
	logger := slog.New(slog.NewTextHandler(&log, nil))

	first := savedEngine(t, snap, search.Config{Embedder: builtin(t), IndexDir: dir, Log: logger}, &log)
	files, _ := filepath.Glob(filepath.Join(dir, "index-*.bin"))
	if len(files) != 1 {
		t.Fatalf("index files %v, want one", files)
	}
	first.Close()

	// A restart on the same catalog loads the file and does not write it
	// again: it holds exactly this catalog's vectors.
	log.Reset()
	same := newEngine(t, snap, search.Config{Embedder: builtin(t), IndexDir: dir, Log: logger})
	waitIndexed(t, same)
	testenv.WaitFor(t, "the index ready", func() bool { return same.Info().IndexState == search.IndexReady })
	same.Close() // the indexer has saved by now, if it was going to
	if !strings.Contains(log.String(), "loaded the saved vector index") || strings.Contains(log.String(), "saved the vector index") {
		t.Errorf("a restart on the same catalog should load the index and not save it again:\n%s", log.String())
	}

	// Restart with one tool changed and one added.
	changed, _, _, err := snap.Upsert([]search.Tool{
		{Name: "weather__get_forecast", Server: "weather", Description: "Forecast the weather for the coming days.", InputSchema: []byte(`{"type":"object"}`)},
		{Name: "lights__turn_off", Server: "lights", Description: "Turn off the lights of a room.", InputSchema: []byte(`{"type":"object"}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	counter := &embedtest.Counting{Inner: builtin(t)}
	second := newEngine(t, changed, search.Config{Embedder: counter, IndexDir: dir, Log: logger})
	waitIndexed(t, second)
	if !strings.Contains(log.String(), "loaded the saved vector index") {
		t.Fatalf("the saved index was not loaded:\n%s", log.String())
	}
	if n := counter.Texts(); n != 2 { // no search has run yet: only documents
		t.Errorf("restart embedded %d documents, want 2 (the changed and the new tool)", n)
	}
	res := search1(t, second, search.Request{Query: "turn off the lights"})
	if got := names(res); len(got) == 0 || got[0] != "lights__turn_off" || res.Metadata.SearchType != search.ModeHybrid {
		t.Errorf("after restart: %v by %q, want lights__turn_off first, hybrid", got, res.Metadata.SearchType)
	}
	// The unchanged catalog's results match a fresh build's for a query
	// that does not touch the changed tool.
	q := "send a message to a slack channel"
	fresh := newSemanticEngine(t, changed)
	if a, b := names(search1(t, second, search.Request{Query: q})), names(search1(t, fresh, search.Request{Query: q})); strings.Join(a, ",") != strings.Join(b, ",") {
		t.Errorf("%q after a restart %v, fresh build %v", q, a, b)
	}
	second.Close()

	// A corrupt file is ignored, with a log line, and the index is built.
	if err := os.WriteFile(files[0], []byte("toolsearch-index\n\x05\x00\x00\x00\x00\x00\x00\x00{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	third := newEngine(t, snap, search.Config{Embedder: builtin(t), IndexDir: dir, Log: logger})
	waitIndexed(t, third)
	if !strings.Contains(log.String(), "ignoring the saved vector index") {
		t.Errorf("a corrupt index file was not reported:\n%s", log.String())
	}
	if got := names(search1(t, third, search.Request{Query: "will it rain tomorrow in Berlin"})); len(got) == 0 || got[0] != "weather__get_forecast" {
		t.Errorf("after a corrupt file: %v", got)
	}
}

// savedEngine starts an engine over snap and waits until it has saved its
// vector index (cfg.Log writes to log).
func savedEngine(t *testing.T, snap *catalog.Snapshot, cfg search.Config, log *logbuf.Buffer) *search.Engine {
	t.Helper()
	e := newEngine(t, snap, cfg)
	waitIndexed(t, e)
	testenv.WaitFor(t, "the vector index saved", func() bool { return strings.Contains(log.String(), "saved the vector index") })
	return e
}

// TestSavedIndexOtherQuantization: an index saved with float32 vectors is
// not loaded by an engine configured for int8 ones (or the reverse): it is
// ignored with a log line and rebuilt in the configured form, then saved
// over.
func TestSavedIndexOtherQuantization(t *testing.T) {
	dir := t.TempDir()
	snap := loadSnapshot(t, exampleCatalog)
	var log logbuf.Buffer
	logger := slog.New(slog.NewTextHandler(&log, nil))
	savedEngine(t, snap, search.Config{Embedder: builtin(t), IndexDir: dir, Log: logger}, &log).Close()

	log.Reset()
	quantized := search.Config{Embedder: builtin(t), IndexDir: dir, Log: logger, HNSW: vectorindex.HNSWConfig{Quantization: vectorindex.QuantizeInt8}}
	second := newEngine(t, snap, quantized)
	waitIndexed(t, second)
	if s := log.String(); !strings.Contains(s, "ignoring the saved vector index") || !strings.Contains(s, "vectors stored as none, configured int8") {
		t.Fatalf("a float32 index was not refused by an int8 engine:\n%s", s)
	}
	if got := names(search1(t, second, search.Request{Query: "will it rain tomorrow in Berlin"})); len(got) == 0 || got[0] != "weather__get_forecast" {
		t.Errorf("int8 engine: %v", got)
	}
	testenv.WaitFor(t, "the vector index saved", func() bool { return strings.Contains(log.String(), "saved the vector index") })
	second.Close()

	log.Reset()
	third := newEngine(t, snap, quantized)
	waitIndexed(t, third)
	if s := log.String(); !strings.Contains(s, "loaded the saved vector index") {
		t.Errorf("the int8 index saved over it was not loaded:\n%s", s)
	}
}

// TestSavedKeywordIndexRestart: the start-up catalog's keyword index is
// saved, and a start over the same catalog loads it and answers every mode
// as a fresh build, and goes on taking changes; a start over another
// catalog, or with a damaged file, builds it again (and says why).
func TestSavedKeywordIndexRestart(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "keyword.bin")
	snap := loadSnapshot(t, exampleCatalog)
	var log logbuf.Buffer
	cfg := search.Config{IndexDir: dir, Log: slog.New(slog.NewTextHandler(&log, nil))}
	newEngine(t, snap, cfg).Close() // Close waits for the save
	if !strings.Contains(log.String(), "saved the keyword index") {
		t.Fatalf("the keyword index was not saved:\n%s", log.String())
	}

	fresh := newEngine(t, snap, search.Config{})
	requests := []search.Request{
		{Query: "will it rain tomorrow in Berlin", Mode: search.ModeKeyword},
		{Query: "send a message to a slack channel"},
		{Query: "issue", Mode: search.ModeRegex},
		{Query: "^github__.*(issue|pull)", Mode: search.ModeRegex},
		{Query: "wether forcast"},
		{Query: "select:github__create_issue,slack__send_message"},
	}
	// same answers every request as fresh does.
	same := func(e *search.Engine) {
		t.Helper()
		for _, r := range requests {
			got, want := search1(t, e, r), search1(t, fresh, r)
			if a, b := fmt.Sprint(names(got), got.Metadata.SearchType), fmt.Sprint(names(want), want.Metadata.SearchType); a != b {
				t.Errorf("%q: %s, a fresh build %s", r.Query, a, b)
			}
		}
	}

	log.Reset()
	loaded := newEngine(t, snap, cfg)
	if !strings.Contains(log.String(), "loaded the saved keyword index") {
		t.Fatalf("a start over the same catalog did not load the keyword index:\n%s", log.String())
	}
	same(loaded)
	light := search.Tool{Name: "lights__turn_off", Server: "lights", Description: "Turn off the lights of a room.", InputSchema: []byte(`{"type":"object"}`)}
	if _, err := loaded.Upsert(context.Background(), []search.Tool{light}); err != nil {
		t.Fatal(err)
	}
	if got := names(search1(t, loaded, search.Request{Query: "turn off the lights", Mode: search.ModeKeyword})); len(got) == 0 || got[0] != light.Name {
		t.Errorf("after an upsert on a loaded index: %v", got)
	}
	loaded.Close()
	if strings.Contains(log.String(), "saved the keyword index") {
		t.Errorf("a loaded keyword index was saved again:\n%s", log.String())
	}

	// Another catalog: built, and saved for it. The save removes the
	// temporary file a killed process left, not one still being written.
	stale, live := filepath.Join(dir, ".keyword.bin-killed"), filepath.Join(dir, ".keyword.bin-writing")
	for _, f := range []string{stale, live} {
		if err := os.WriteFile(f, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(stale, time.Now().Add(-time.Hour), time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	changed, _, _, err := snap.Upsert([]search.Tool{light})
	if err != nil {
		t.Fatal(err)
	}
	log.Reset()
	newEngine(t, changed, cfg).Close()
	if s := log.String(); !strings.Contains(s, "not using the saved keyword index") || !strings.Contains(s, "another catalog") || !strings.Contains(s, "saved the keyword index") {
		t.Fatalf("a start over another catalog should rebuild and save the keyword index:\n%s", s)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("a stale temporary file was kept: %v", err)
	}
	if err := os.Remove(live); err != nil {
		t.Errorf("a temporary file in use was removed: %v", err)
	}

	// A damaged file (saved for changed): refused by its checksum, built.
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x10
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	damaged := newEngine(t, changed, cfg)
	if s := log.String(); !strings.Contains(s, "not using the saved keyword index") || !strings.Contains(s, "checksum") {
		t.Fatalf("a damaged keyword file was not refused:\n%s", s)
	}
	if got := names(search1(t, damaged, search.Request{Query: "turn off the lights", Mode: search.ModeKeyword})); len(got) == 0 || got[0] != light.Name {
		t.Errorf("after a damaged file: %v", got)
	}
	damaged.Close()
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// A saved keyword file larger than its catalog could need — a valid
// header followed by 2 GB of sparse zeros — or one that is not a regular
// file is discarded unread (warned), built, and saved over.
func TestSavedKeywordIndexOversized(t *testing.T) {
	snap := loadSnapshot(t, exampleCatalog)
	tests := []struct {
		name   string
		budget int64
		damage func(t *testing.T, file string)
		reason string
	}{
		{"2 GB sparse under a 480 MiB budget", 480 << 20, func(t *testing.T, file string) {
			if err := os.Truncate(file, 2<<30); err != nil {
				t.Skip("no sparse files here:", err)
			}
		}, "too large"},
		{"oversized without a budget", 0, func(t *testing.T, file string) {
			if err := os.Truncate(file, 1<<30); err != nil {
				t.Skip("no sparse files here:", err)
			}
		}, "too large"},
		{"a link to /dev/zero", 480 << 20, func(t *testing.T, file string) {
			if err := os.Remove(file); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("/dev/zero", file); err != nil {
				t.Skip("no symbolic links here:", err)
			}
		}, "outside its directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "keyword.bin")
			var log logbuf.Buffer
			cfg := search.Config{IndexDir: dir, MemoryBudget: tt.budget, Log: slog.New(slog.NewTextHandler(&log, nil))}
			newEngine(t, snap, cfg).Close()
			tt.damage(t, file)
			log.Reset()
			e := newEngine(t, snap, cfg)
			if got := names(search1(t, e, search.Request{Query: "send a message to a slack channel", Mode: search.ModeKeyword})); len(got) == 0 {
				t.Error("no results after the rebuild")
			}
			e.Close()
			if s := log.String(); !strings.Contains(s, "discarding the saved keyword index unread") || !strings.Contains(s, tt.reason) || !strings.Contains(s, "saved the keyword index") {
				t.Fatalf("want the file discarded (%s), built and saved:\n%s", tt.reason, s)
			}
			if fi, err := os.Lstat(file); err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
				t.Errorf("the file was not saved over: %v %v", fi, err)
			}
		})
	}
}

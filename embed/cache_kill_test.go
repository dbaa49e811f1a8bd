package embed_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/embed/embedtest"
)

// envCacheWriter, when set to a directory, makes TestCachedKilledMidWrite
// the writer process: it embeds texts into a cache there until killed.
const envCacheWriter = "TOOLSEARCH_TEST_CACHE_WRITER"

// killWords make the writer's texts: three words each, all known to the
// built-in model, so no vector is zero (zero vectors are not cached).
var killWords = strings.Fields("send message channel read file weather forecast city create issue repository " +
	"calendar event schedule meeting email inbox search web page translate text image resize upload download " +
	"database query table")

// killText is the writer's i-th text.
func killText(i int) string {
	n := len(killWords)
	return fmt.Sprintf("%s %s %s", killWords[i%n], killWords[(i/n)%n], killWords[(i/n/n)%n])
}

// killWriter embeds killText(0), killText(1), … in batches into a cache in
// dir, printing "ready" after the first batch, until the process is killed.
func killWriter(dir string) {
	b, err := embed.NewBuiltin()
	if err != nil {
		panic(err)
	}
	c, err := embed.NewCached(b, dir)
	if err != nil {
		panic(err)
	}
	for i := 0; ; i += 7 {
		texts := make([]string, 7)
		for j := range texts {
			texts[j] = killText(i + j)
		}
		if _, err := c.Embed(context.Background(), embed.Document, texts); err != nil {
			panic(err)
		}
		if i == 0 {
			fmt.Println("ready")
		}
	}
}

// TestCachedKilledMidWrite kills (SIGKILL) a process that is appending to a
// cache, at a different moment each round, and checks that the next open
// loads only correct vectors (each equal to the model's), repairs a torn
// last record, and that the cache keeps working (the next writer appends to
// it).
func TestCachedKilledMidWrite(t *testing.T) {
	if dir := os.Getenv(envCacheWriter); dir != "" {
		killWriter(dir)
		return
	}
	dir := t.TempDir()
	model, err := embed.NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	const rounds = 4
	torn := 0
	for round := range rounds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCachedKilledMidWrite$")
		cmd.Env = append(os.Environ(), envCacheWriter+"="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("writer: %q, %v", line, err)
		}
		time.Sleep(time.Duration(2+5*round) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()

		inner := &embedtest.Counting{Inner: model}
		c := open(t, inner, dir)
		st := c.Stats()
		if st.Entries == 0 || st.Corrupted != 0 || st.Invalid != 0 {
			t.Fatalf("round %d: after SIGKILL, stats %+v; want entries, no corrupted or invalid record", round, st)
		}
		if st.TruncatedBytes > 0 {
			torn++
		}
		texts := make([]string, st.Entries+20)
		for i := range texts {
			texts[i] = killText(i)
		}
		got, err := c.Embed(context.Background(), embed.Document, texts)
		if err != nil {
			t.Fatal(err)
		}
		want, err := model.Embed(context.Background(), embed.Document, texts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("round %d: cached vectors differ from the model's (-want +got):\n%s", round, diff)
		}
		if n := inner.Texts(); n > 20+7 {
			t.Errorf("round %d: %d of %d texts re-embedded, want at most the 20 beyond the cache and one batch", round, n, len(texts))
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		t.Logf("round %d: killed after %d vectors were cached (torn last record: %v)", round, st.Entries, st.TruncatedBytes > 0)
	}
	t.Logf("%d rounds, %d with a torn last record repaired", rounds, torn)
}

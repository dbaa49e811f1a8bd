package postgres_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/toolsearch/toolsearch/embed"
	"github.com/toolsearch/toolsearch/embed/embedtest"
	"github.com/toolsearch/toolsearch/store/postgres"
	"github.com/toolsearch/toolsearch/store/postgres/pgtest"
)

// The shared tier under embed.Cached: a second pod with an empty local
// cache embeds nothing that the first embedded; a bad shared row is
// dropped and computed again.
func TestSharedEmbeddingCache(t *testing.T) {
	url := pgtest.NewDB(t)
	ctx := context.Background()
	b, err := embed.NewBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, 50)
	for i := range texts {
		texts[i] = fmt.Sprintf("send message number %d to a slack channel", i)
	}
	pod := func(dir string) (*embed.Cached, *embedtest.Counting) {
		s := open(t, url, postgres.Handlers{})
		waitReady(t, s)
		inner := &embedtest.Counting{Inner: b}
		c, err := embed.NewCached(inner, dir, embed.CacheShared(s))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c, inner
	}
	first, firstInner := pod(t.TempDir())
	want, err := first.Embed(ctx, embed.Document, texts)
	if err != nil {
		t.Fatal(err)
	}
	if firstInner.Texts() != len(texts) {
		t.Fatalf("first pod embedded %d texts, want %d", firstInner.Texts(), len(texts))
	}
	second, secondInner := pod(t.TempDir())
	got, err := second.Embed(ctx, embed.Document, texts)
	if err != nil {
		t.Fatal(err)
	}
	if n := secondInner.Texts(); n != 0 {
		t.Errorf("second pod embedded %d texts, want 0 (all from the shared tier)", n)
	}
	for i := range want {
		if fmt.Sprint(want[i]) != fmt.Sprint(got[i]) {
			t.Fatalf("text %d: shared vector differs from the computed one", i)
		}
	}
	if st := second.Stats(); st.SharedHits != uint64(len(texts)) {
		t.Errorf("second pod stats %+v, want %d shared hits", st, len(texts))
	}

	// Corrupt two rows: one all-zero, one not of unit length.
	conn := connect(t, url)
	if _, err := conn.Exec(ctx, `UPDATE toolsearch_embeddings SET vec = decode(repeat('00', length(vec)), 'hex')
		WHERE key = (SELECT key FROM toolsearch_embeddings ORDER BY key LIMIT 1)`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `UPDATE toolsearch_embeddings SET vec = decode(repeat('0000803f', length(vec)/4), 'hex')
		WHERE key = (SELECT key FROM toolsearch_embeddings ORDER BY key OFFSET 1 LIMIT 1)`); err != nil {
		t.Fatal(err)
	}
	third, thirdInner := pod("")
	if _, err := third.Embed(ctx, embed.Document, texts); err != nil {
		t.Fatal(err)
	}
	if n := thirdInner.Texts(); n != 2 {
		t.Errorf("third pod embedded %d texts, want the 2 whose shared rows were bad", n)
	}
	if st := third.Stats(); st.SharedInvalid != 2 || st.SharedHits != uint64(len(texts)-2) {
		t.Errorf("third pod stats %+v, want 2 invalid, %d hits", st, len(texts)-2)
	}
	// The bad rows were replaced: a fourth pod embeds nothing.
	fourth, fourthInner := pod("")
	if _, err := fourth.Embed(ctx, embed.Document, texts); err != nil {
		t.Fatal(err)
	}
	if n := fourthInner.Texts(); n != 0 {
		t.Errorf("fourth pod embedded %d texts, want 0", n)
	}
}

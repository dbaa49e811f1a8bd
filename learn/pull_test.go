package learn

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
)

// Pull reads a shared learned-state file from a URL or a path; pulling
// the same state again changes nothing.
func TestPull(t *testing.T) {
	src := NewStore(Config{Now: newClock().now})
	src.Record(Use{Tool: "x", Query: "q", Session: "a", Weight: 1})
	var buf bytes.Buffer
	if err := src.Export(&buf); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/learned.jsonl" {
			http.NotFound(w, r)
			return
		}
		w.Write(buf.Bytes())
	}))
	defer hs.Close()
	path := filepath.Join(t.TempDir(), FileName)
	if err := src.Save(path); err != nil {
		t.Fatal(err)
	}
	for _, from := range []string{hs.URL + "/learned.jsonl", path} {
		dst := NewStore(Config{Now: newClock().now})
		for range 2 {
			if st, err := dst.Pull(context.Background(), from); err != nil || st.Records != 1 {
				t.Fatalf("Pull(%s) = %+v, %v", from, st, err)
			}
		}
		if tv := dst.View().Tool("", "x"); tv == nil || tv.Weight != 1 {
			t.Errorf("after pulling %s twice: %+v, want weight 1", from, tv)
		}
	}
	if _, err := NewStore(Config{}).Pull(context.Background(), hs.URL+"/missing"); err == nil {
		t.Error("Pull of a 404: want an error")
	}
}

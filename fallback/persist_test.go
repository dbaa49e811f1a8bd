package fallback

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// roundTrip saves ix and reads it back.
func roundTrip(t *testing.T, ix *Index) *Index {
	t.Helper()
	var buf bytes.Buffer
	n, err := ix.WriteTo(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("WriteTo reported %d bytes, wrote %d", n, buf.Len())
	}
	size := int64(buf.Len())
	if size%2 == 0 { // both ways of reading
		size = -1
	}
	got, err := ReadIndex(&buf, size)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestSavedIndexAnswersAsSaved saves indexes made by NewIndex and by
// random Applies (overlays, pending list changes, server overrides, frozen
// statistics) and checks that the loaded index answers every query method
// exactly as the saved one, and that Apply goes on from it exactly as from
// the saved one, rebuilds included.
func TestSavedIndexAnswersAsSaved(t *testing.T) {
	seeds, steps := int64(3), 24
	if testing.Short() || raceEnabled {
		seeds, steps = 1, 6
	}
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewSource(100 + seed))
			var docs []Document
			for range 40 + r.Intn(40) {
				docs = append(docs, synthDoc(r, 5))
			}
			ix := NewIndex(docs)
			loaded := roundTrip(t, ix)
			for step := range steps {
				qs := probeQueries(rand.New(rand.NewSource(int64(step))), docs)
				if step%4 == 0 || step == steps-1 {
					loaded = roundTrip(t, ix)
				}
				if step%3 == 2 || step == steps-1 {
					if diff := cmp.Diff(snapshot(t, ix, qs), snapshot(t, loaded, qs)); diff != "" {
						t.Fatalf("step %d: the loaded index answers differently (-saved +loaded):\n%s", step, diff)
					}
					if ix.changed != loaded.changed || !cmp.Equal(ix.st.dict, loaded.st.dict) || ix.st.avg != loaded.st.avg || ix.st.srvAvg != loaded.st.srvAvg {
						t.Fatalf("step %d: frozen statistics differ", step)
					}
				}
				n, edits := applyOp(r, &docs, 20+step)
				ix, loaded = ix.Apply(n, edits), loaded.Apply(n, edits)
			}
		})
	}
}

// TestSaveEmptyIndex round-trips the zero value and an index of no tools.
func TestSaveEmptyIndex(t *testing.T) {
	for _, ix := range []*Index{{}, NewIndex(nil)} {
		got := roundTrip(t, ix)
		qs := []string{"", "weather", "get_*"}
		if diff := cmp.Diff(snapshot(t, NewIndex(nil), qs), snapshot(t, got, qs)); diff != "" {
			t.Fatalf("the loaded empty index answers differently:\n%s", diff)
		}
		got = got.Apply(1, []Edit{{ID: 0, Doc: Document{Name: "get_weather", Description: "Current weather."}}})
		if res := got.Keyword(mustParse(t, "weather"), Options{}); len(res.Hits) != 1 {
			t.Fatalf("Apply on a loaded empty index: %+v", res)
		}
	}
}

// TestReadIndexRefusesDamage checks that truncated, altered and foreign
// data is refused with ErrCorrupt, never loaded or panicking.
func TestReadIndexRefusesDamage(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	var docs []Document
	for range 30 {
		docs = append(docs, synthDoc(r, 3))
	}
	var buf bytes.Buffer
	if _, err := NewIndex(docs).WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	cases := map[string][]byte{
		"empty":       nil,
		"magic only":  []byte(persistMagic),
		"other magic": append([]byte("toolsearch-index\n"), good[len("toolsearch-index\n"):]...),
		"truncated":   good[:len(good)/2],
		"no checksum": good[:len(good)-4],
	}
	other := bytes.Clone(good)
	other[len(persistMagic)]++ // the layout version
	cases["another version"] = other
	for _, at := range []int{len(persistMagic) + 6, len(good) / 3, len(good) - 10} {
		flipped := bytes.Clone(good)
		flipped[at] ^= 0x40
		cases[fmt.Sprintf("byte %d altered", at)] = flipped
	}
	for name, data := range cases {
		if _, err := ReadIndex(bytes.NewReader(data), -1); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: got %v, want ErrCorrupt", name, err)
		}
		if _, err := ReadIndex(bytes.NewReader(data), int64(len(data))); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s, size given: got %v, want ErrCorrupt", name, err)
		}
	}
	for _, size := range []int64{int64(len(good)) - 1, int64(len(good)) + 1} {
		if _, err := ReadIndex(bytes.NewReader(good), size); !errors.Is(err, ErrCorrupt) {
			t.Errorf("size %d of %d: got %v, want ErrCorrupt", size, len(good), err)
		}
	}
}

// FuzzDecodeIndex feeds arbitrary parts (past the checksum, which would
// otherwise refuse almost every input) to the decoder: it must refuse them
// or make an index that answers queries without panicking.
func FuzzDecodeIndex(f *testing.F) {
	r := rand.New(rand.NewSource(3))
	var docs []Document
	for range 6 {
		docs = append(docs, synthDoc(r, 2))
	}
	for _, ix := range []*Index{NewIndex(nil), NewIndex(docs[:1]), NewIndex(docs)} {
		var buf bytes.Buffer
		if _, err := ix.WriteTo(&buf); err != nil {
			f.Fatal(err)
		}
		b := buf.Bytes()
		f.Add(b[len(persistMagic)+4 : len(b)-4])
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		ix, err := decodeIndex(body)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		qs := []string{"get weather", "+issue -github", "server:slack send", "wether", "get_*", "weath", "find pho", "photographs"}
		snapshot(t, ix, qs)
		ix = ix.Apply(ix.Len()+1, []Edit{{ID: ix.Len(), Doc: Document{Name: "x", Server: "slack", Description: "get weather"}}})
		if n := ix.Len(); n > 1 { // an update, then a swap-remove
			ix = ix.Apply(n, []Edit{{ID: 0, Doc: Document{Name: "y", Server: "github", Description: "list issues"}}})
			ix = ix.Apply(n-1, []Edit{{ID: 0, Doc: ix.Document(n - 1)}})
		}
		snapshot(t, ix, qs)
	})
}

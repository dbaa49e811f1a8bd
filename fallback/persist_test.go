package fallback

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/query"
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

// use runs each kind of lookup on ix once.
func use(ix *Index) {
	for id := -1; id <= ix.Len(); id++ {
		ix.Name(id)
	}
	for _, s := range []string{"get weather", "+send -github server:slack", "wether", "getwether"} {
		q, err := query.Parse(s)
		if err != nil {
			continue
		}
		o := Options{Limit: 3, Explain: true, Allow: func(id int) bool { return id%3 != 1 }}
		ix.Keyword(q, o)
		ix.Fuzzy(q, o)
		ix.Filter(q)
		ix.ExactName(s)
		ix.Select(strings.Fields(s), o)
		ix.ToolsWith("weather")
	}
	for _, p := range []string{"get_*", "weath.*r"} {
		for _, useIndex := range []bool{true, false} {
			ix.regex(p, Options{Limit: 3}, useIndex)
		}
	}
}

// FuzzDecodeIndex: any body either fails with ErrCorrupt or decodes to an
// index that answers every query, and takes an Apply, without panicking.
// The body comes in sections — the string table and the sections that
// refer to it — mutated one at a time and joined with the table's length;
// the seeds are tiny indexes (up to two one-line tools, a few hundred
// bytes), so that thousands run a second and an interesting input is
// minimized in moments.
func FuzzDecodeIndex(f *testing.F) {
	tiny := []Document{
		{Name: "get_weather", Server: "weather", Description: "Get the weather.", ParamNames: []string{"city"}, ParamDescs: []string{"a city"}},
		{Name: "slack__send", Server: "slack", Category: "chat", Description: "Send a message."},
	}
	for _, ix := range []*Index{NewIndex(nil), NewIndex(tiny[:1]), NewIndex(tiny)} {
		var buf bytes.Buffer
		if _, err := ix.WriteTo(&buf); err != nil {
			f.Fatal(err)
		}
		b := buf.Bytes()
		body := b[len(persistMagic)+4 : len(b)-4]
		n := binary.LittleEndian.Uint64(body)
		f.Add(body[8:8+n], body[8+n:])
	}
	f.Fuzz(func(t *testing.T, strs, rest []byte) {
		body := binary.LittleEndian.AppendUint64(nil, uint64(len(strs)))
		body = append(append(body, strs...), rest...)
		ix, err := decodeIndex(body)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		use(ix) // what a search does, kept light: a slow target fuzzes little
		ix = ix.Apply(ix.Len()+1, []Edit{{ID: ix.Len(), Doc: Document{Name: "x", Server: "slack", Description: "get weather"}}})
		if n := ix.Len(); n > 1 { // an update, then a swap-remove
			ix = ix.Apply(n, []Edit{{ID: 0, Doc: Document{Name: "y", Server: "github", Description: "list issues"}}})
			ix = ix.Apply(n-1, []Edit{{ID: 0, Doc: ix.Document(n - 1)}})
		}
		use(ix)
	})
}

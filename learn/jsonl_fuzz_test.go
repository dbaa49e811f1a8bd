package learn

import (
	"bytes"
	"testing"
)

// FuzzImport: any input imports its valid records (a reader's error is the
// only error, and bytes.Reader has none), and what it imported exports and
// imports again to the same state, with no line skipped.
func FuzzImport(f *testing.F) {
	f.Add([]byte(`{"tool":"a","query":"q","weight":1,"at":"2026-11-23T12:00:00Z"}` + "\n"))
	f.Add([]byte(`{"tool":"a","query":"q","weight":0.5,"at":"2026-11-23T12:00:00Z","sessions":3,"miss":true,"miss_queries":8}` + "\n" + `{"tool":"a","query":"r","weight":0.01,"at":"2026-01-01T00:00:00Z","miss":true}` + "\n"))
	f.Add([]byte("\n\n"))
	f.Add([]byte(`{"tool":"","query":"q","weight":1}`))
	f.Add([]byte(`{"tool":"a","query":"  ","weight":-1}`))
	f.Add([]byte(`{"tool":"a","query":"q","weight":3,"at":"2026-11-23T12:00:00Z","sessions":2}` + "\njunk\n" + `{"tool":"a","query":"r","weight":1e308,"at":"9999-01-01T00:00:00Z"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		now := newClock().now
		s := NewStore(Config{Now: now})
		if _, err := s.Import(bytes.NewReader(data)); err != nil {
			t.Fatal(err)
		}
		var a, b bytes.Buffer
		if err := s.Export(&a); err != nil {
			t.Fatal(err)
		}
		r := NewStore(Config{Now: now})
		if st, err := r.Import(bytes.NewReader(a.Bytes())); err != nil || st.Skipped != 0 || st.Clamped != 0 {
			t.Fatalf("re-import of an export: %+v, %v\n%s", st, err, a.Bytes())
		}
		if err := r.Export(&b); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Fatalf("export → import → export differs:\n%s\n%s", a.String(), b.String())
		}
	})
}

package learn

import (
	"bytes"
	"testing"
)

// FuzzImport: any input either fails with an error and changes nothing,
// or imports records that export and import again to the same state.
func FuzzImport(f *testing.F) {
	f.Add([]byte(`{"tool":"a","query":"q","weight":1,"at":"2026-11-23T12:00:00Z"}` + "\n"))
	f.Add([]byte("\n\n"))
	f.Add([]byte(`{"tool":"","query":"q","weight":1}`))
	f.Add([]byte(`{"tool":"a","query":"  ","weight":-1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		now := newClock().now
		s := NewStore(Config{Now: now})
		if _, err := s.Import(bytes.NewReader(data)); err != nil {
			if s.View().Len() != 0 {
				t.Fatal("a failed import changed the store")
			}
			return
		}
		var a, b bytes.Buffer
		if err := s.Export(&a); err != nil {
			t.Fatal(err)
		}
		r := NewStore(Config{Now: now})
		if _, err := r.Import(bytes.NewReader(a.Bytes())); err != nil {
			t.Fatalf("re-import of an export: %v\n%s", err, a.Bytes())
		}
		if err := r.Export(&b); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Fatalf("export → import → export differs:\n%s\n%s", a.String(), b.String())
		}
	})
}

package search

import (
	"context"
	"testing"
)

// BenchmarkPathRequest measures a keyword-mode search of a short request
// on a path or a file name over bfcl's catalog (2,015 tools, long
// parameter descriptions), where the path rule (boostPathTakers) asks
// namesKind of up to fusionDepth hits, one request per op:
//
//	go test -run '^$' -bench PathRequest -benchmem ./search
func BenchmarkPathRequest(b *testing.B) {
	e := devSetEngine(b, "bfcl")
	qs := []string{"read the file /home/user/report.txt", "what is in ~/projects/notes.md", "how big is backup.tar.gz", "move draft.docx to /srv/archive"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := e.Search(context.Background(), Request{Query: qs[i%len(qs)], Mode: ModeKeyword, MaxResults: 5}); err != nil {
			b.Fatal(err)
		}
	}
}

package fallback

import (
	"slices"
	"testing"
)

func TestServerSmoothing(t *testing.T) {
	// alpha__get_score and zeta__get_score have the same text; zeta's
	// server also covers the rest of the request, so zeta's ranks first
	// although its name sorts last.
	docs := []Document{
		{Name: "alpha__get_score", Server: "alpha", Description: "Get the score of a game."},
		{Name: "alpha__forecast", Server: "alpha", Description: "Weather forecast."},
		{Name: "zeta__get_score", Server: "zeta", Description: "Get the score of a game."},
		{Name: "zeta__roster", Server: "zeta", Description: "Player statistics of a team."},
		{Name: "solo_tool", Description: "Team roster."},
	}
	ix := NewIndex(docs)
	serverOf := make([]int32, ix.Len())
	for id := range serverOf {
		serverOf[id] = ix.docs.At(id).serverID
	}
	if serverOf[0] != serverOf[1] || serverOf[0] == serverOf[2] || serverOf[4] == serverOf[0] || serverOf[4] == serverOf[2] {
		t.Fatalf("serverOf = %v, want alpha, alpha, zeta, zeta, own", serverOf)
	}
	q := mustParse(t, "game score and player statistics ")
	s := ix.getScratch()
	ix.scoreServers(s, ix.plan(s, q, true, false, false, nil))
	alpha, zeta := s.servers.acc[serverOf[0]], s.servers.acc[serverOf[2]]
	ix.putScratch(s)
	if zeta != 1 || !(alpha > 0 && alpha < zeta) {
		t.Errorf("server scores alpha %.3f, zeta %.3f; want 0 < alpha < zeta = 1", alpha, zeta)
	}
	got := names(ix, ix.Keyword(q, Options{}))
	if i, j := slices.Index(got, "zeta__get_score"), slices.Index(got, "alpha__get_score"); i < 0 || j < 0 || i > j {
		t.Errorf("Keyword(%q) = %v, want zeta__get_score above alpha__get_score", q.Raw, got)
	}
	// The scratch is clean for the next query.
	s = ix.getScratch()
	defer ix.putScratch(s)
	for i, v := range s.servers.acc {
		if v != 0 {
			t.Fatalf("srv[%d] = %v after putScratch, want 0", i, v)
		}
	}
}

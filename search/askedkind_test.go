package search_test

import (
	"testing"

	"github.com/toolsearch/toolsearch/search"
)

// TestAskedCoordinates: a request that names coordinates and holds none
// asks for them (askedKind): maps__geocode, which returns them, ranks over
// maps__reverse_geocode, whose required latitude and longitude the
// request does not give; a request with coordinates still ranks the tool
// that takes them first, over maps__geocode, which yields them
// (yieldsCoordinates).
func TestAskedCoordinates(t *testing.T) {
	firstTools(t, []firstCase{
		{"what's the latitude of Machu Picchu", search.ModeDefault, "maps__geocode"},
		{"GPS coordinates for the Golden Gate Bridge", search.ModeDefault, "maps__geocode"},
		{"give me lat/lng for Tokyo Tower", search.ModeKeyword, "maps__geocode"},
		{"which street is at 35.6586, 139.7454", search.ModeKeyword, "maps__reverse_geocode"},
		// Coordinates given: maps__geocode yields them, and is demoted.
		{"What address is at 52.5163, 13.3777?", search.ModeDefault, "maps__reverse_geocode"},
		{"What street address is at 41.8902, 12.4922?", search.ModeDefault, "maps__reverse_geocode"},
	})
}

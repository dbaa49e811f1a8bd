package search

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolsearch/toolsearch/fallback"
)

// A request that names coordinates by their words and holds none ("What
// are the coordinates of the Rijksmuseum?", "lat/long of the Eiffel
// Tower", "Pin down the GPS position of the Sydney Opera House") asks for
// coordinates: it is done by a tool that returns them (maps__geocode,
// "Convert an address or place name into geographic coordinates"), not by
// one that needs them to run (maps__reverse_geocode, whose required
// latitude and longitude are numbers the request does not give). Yet the
// words match both, and the shorter description ranks the tool that
// needs them first. So the tools whose required parameters of numbers
// name coordinates (toolFacts.neededNumbers, coordinateWords) are scaled
// by askedKindFactor, and the best hit keeps its score, as requestRead
// does. A request with coordinates ("what address is at 48.8584,
// 2.2945") gives them: the path rule lifts their takers (numberKinds).

// askedKindFactor scales the hits of tools that need the coordinates a
// request asks for, and of those that yield the coordinates it gives
// (askedKind; the latter measured at this value only, see "The converse"
// below): frameFactor's value, since the request
// says surely what it wants. Measured (docs/benchmarks.md, "Coordinates
// asked for"), example pairs' first tool right (767): 600 → 603 at 0.5,
// → 604 at 0.4 ("What are the coordinates of the Rijksmuseum in
// Amsterdam?", default mode: 0.608 × 0.5 was still above maps__geocode's
// 0.301); keyword 614 → 617 at both; dev sets unchanged.
const askedKindFactor = 0.4

// askedMaxWords is the longest request, in words as written, that
// askedKind reads: a longer one is a task whose coordinates are what a
// step needs ("Can you provide me with the ocean conditions closest to
// the latitude and longitude of the wedding venue? ...", stabletoolbench,
// wants the tool that takes them). The example sets' such requests have 5
// to 11 words. Measured: stabletoolbench nDCG@10 .7507 → .7496 (keyword
// .7486 → .7476) without the limit, unchanged with it.
const askedMaxWords = 15

// asksCoordinates reports whether raw names coordinates by a word of
// coordinateWords, or a short form of one (fallback.FullForms: "gps"),
// and holds no value of fallback.KindCoordinates and no number (numeral),
// in a request of at most askedMaxWords words.
func asksCoordinates(raw string) bool {
	if len(strings.Fields(raw)) > askedMaxWords {
		return false
	}
	named := slices.ContainsFunc(fallback.Words(raw), func(w string) bool {
		return slices.Contains(coordinateWords, w) || slices.ContainsFunc(fallback.FullForms(w), func(f string) bool { return slices.Contains(coordinateWords, f) })
	})
	if !named {
		return false
	}
	return !slices.ContainsFunc(strings.Fields(raw), numeral) &&
		!slices.ContainsFunc(fallback.ValueKinds(raw), func(v fallback.Value) bool { return v.Kind == fallback.KindCoordinates })
}

// numeral reports whether a raw token is a number ("37.8715", "-122.27,",
// "30%"): a request may give a latitude and a longitude apart ("using
// latitude 37.8715 and longitude -122.2730", bfcl), which are no value of
// fallback.KindCoordinates.
func numeral(tok string) bool {
	_, err := strconv.ParseFloat(strings.TrimRight(strings.Trim(tok, "()[]\"'"), ".,;:!?%°"), 64)
	return err == nil
}

// needsCoordinates reports whether tool id has a required parameter of
// numbers that names coordinates (coordinateWords).
func (st *state) needsCoordinates(id int) bool {
	return slices.ContainsFunc(st.facts(id).neededNumbers, coordinateStem)
}

// coordinateStem reports whether w, a word without its plural "s", is one
// of coordinateWords without theirs ("latitude", "coordinate", "lat").
func coordinateStem(w string) bool {
	return slices.ContainsFunc(coordinateWords, func(c string) bool { return strings.TrimSuffix(c, "s") == w })
}

// askedKind scales the hits of tools that need the coordinates r's
// request asks for, or of those that yield the coordinates it gives (see
// above and below), sorts hs again and keeps the best hit's score
// (demote, as requestRead); hs is returned unchanged when the request
// asks for and gives none, or no hit needs or yields them.
func (st *state) askedKind(r *reading, hs []hit) []hit {
	if len(hs) < 2 {
		return hs
	}
	if givesCoordinates(r) {
		yields := func(k int) bool { return st.yieldsCoordinates(hs[k].id) }
		return st.demote(hs, yields, askedKindFactor, "coordinates given, and the tool yields them", r.debug)
	}
	if !asksCoordinates(r.req.Raw) {
		return hs
	}
	needs := func(k int) bool { return st.needsCoordinates(hs[k].id) }
	return st.demote(hs, needs, askedKindFactor, "coordinates asked for, and the tool needs them", r.debug)
}

// The converse: a request that gives coordinates ("What address is at
// 48.8584, 2.2945?") has them, and is not done by a tool that yields
// them (maps__geocode, "Convert an address or place name into geographic
// coordinates"), whose description's words ("address") it shares with
// the tool that takes them (maps__reverse_geocode, "Convert geographic
// coordinates into a human-readable address"), and whose description the
// semantic half ranked first. A tool yields coordinates when its
// description names them (coordinateWords) and none of its parameters
// does (toolFacts.paramText): it takes something else and gives them. Its
// hits are scaled by askedKindFactor, the best keeping its score.
// Measured (twelfth session, h38-rank; docs/benchmarks.md, "Coordinates
// given"), default mode: example pairs' first tool right (717) 553.3 →
// 555.3, pair 22 34 → 35 of 50, pair 24 28.5 → 29.5; keyword mode (where
// the path rule's numberKinds lift already ranked the taker first), every
// flag and the dev sets (bfcl's 4 requests with coordinates) unchanged.

// givesCoordinates reports whether r's request holds coordinates
// (fallback.KindCoordinates) that are no adjunct, in a request of at most
// askedMaxWords words. It reads the request's values once for the search
// (reading.values), which the no-match rules read too: it runs on every
// request of two hits or more.
func givesCoordinates(r *reading) bool {
	if len(strings.Fields(r.req.Raw)) > askedMaxWords {
		return false
	}
	return slices.ContainsFunc(r.values(), func(v fallback.Value) bool {
		return v.Kind == fallback.KindCoordinates && !v.Adjunct
	})
}

// yieldsCoordinates reports whether tool id's description names
// coordinates (coordinateWords) and none of its parameters does.
func (st *state) yieldsCoordinates(id int) bool {
	named := func(w string) bool { return coordinateStem(strings.TrimSuffix(w, "s")) }
	if slices.ContainsFunc(st.facts(id).paramText, named) {
		return false
	}
	return slices.ContainsFunc(strings.Fields(strings.ToLower(st.snap.Tool(id).Description)), func(tok string) bool {
		return named(strings.Trim(tok, ".,;:!?()[]\"'"))
	})
}

//go:build race

package vectorindex

// raceEnabled is set when the race detector is on; it slows the graph build
// ~10x, so the 100k-vector recall test is skipped under -race (the
// concurrency tests, at smaller sizes, are what -race is for).
const raceEnabled = true

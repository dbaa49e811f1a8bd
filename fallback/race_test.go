//go:build race

package fallback

// raceEnabled is set when the race detector is on; it slows RE2 matching
// ~20x, so TestRegexIndexMatchesScan uses a smaller catalog under -race.
const raceEnabled = true

//go:build !race

package fallback

// raceEnabled: see race_test.go.
const raceEnabled = false

//go:build !race

package vectorindex

// raceEnabled: see race_test.go.
const raceEnabled = false

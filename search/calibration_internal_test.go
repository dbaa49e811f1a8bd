package search

import (
	"math"
	"testing"
)

// TestUncalibrated: uncalibrated maps a calibrated score back to the x it
// came from, on both sides of the knee, as fusedLine reads keyword hits.
func TestUncalibrated(t *testing.T) {
	for _, knee := range []float64{hybridKnee, keywordKnee} {
		for _, x := range []float64{0, 0.01, knee / 2, knee, 0.3, 0.9, 1} {
			if got := uncalibrated(calibrated(x, knee), knee); math.Abs(got-x) > 1e-12 {
				t.Errorf("knee %.3f: uncalibrated(calibrated(%.3f)) = %.6f", knee, x, got)
			}
		}
	}
}

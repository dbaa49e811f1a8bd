package learn

import (
	"math"
	"time"
)

// DefaultHalfLife is the default age at which a learned use counts half:
// agents' wording drifts and catalogs change over weeks, so a use 30 days
// old counts 0.5, 60 days old 0.25, and a use nobody repeats for half a
// year (≈ 1/64) has faded below forgetWeight and is dropped.
const DefaultHalfLife = 30 * 24 * time.Hour

// forgetWeight is the decayed weight below which a learned query is
// dropped: 1/64 of one fresh successful use.
const forgetWeight = 1.0 / 64

// decayed returns weight w recorded at time at, as of now, with half-life
// h: w · 2^(−(now − at)/h). A time in the future counts as now.
func decayed(w float64, at, now time.Time, h time.Duration) float64 {
	age := now.Sub(at)
	if age <= 0 || h <= 0 {
		return w
	}
	return w * math.Exp2(-float64(age)/float64(h))
}

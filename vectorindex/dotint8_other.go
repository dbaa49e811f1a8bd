//go:build !amd64

package vectorindex

// dotInt8 returns the dot product of two int8 vectors of equal length.
func dotInt8(a, b []int8) int32 { return dotInt8Go(a, b) }

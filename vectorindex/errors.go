package vectorindex

import "errors"

// ErrDimension is returned (wrapped with the expected and actual lengths)
// when a vector's length differs from the index's dimension. Callers branch
// on it with errors.Is.
var ErrDimension = errors.New("vector dimension mismatch")

// ErrInvalidVector is returned (wrapped with the offending ID or position)
// when a vector holds a NaN or infinite value, which would corrupt the graph
// and every score computed from it.
var ErrInvalidVector = errors.New("vector has NaN or infinite values")

// Package binfmt holds the binary codec of the saved indexes (fallback's
// keyword index, vectorindex's HNSW graph): a Writer and a Reader of
// little-endian values that keep their first error, so that a section of a
// file is written or read without an error check per value, and a CRC-32C
// (Castagnoli) trailer over everything before it.
//
// The layout of each file, and the order of its sections, belongs to the
// package that saves it; binfmt knows nothing of either.
package binfmt

import "hash/crc32"

// castagnoli is the CRC-32C table of every trailer.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

package fallback

import "strings"

// minVariantLen is the shortest stem (in bytes) that is matched with its
// extensions by variants: "photo" ~ "photograph", but "stat" is not matched
// with "statu" (status).
const minVariantLen = 5

// maxVariants caps the variants of one query term.
const maxVariants = 8

// variantWeight is the weight of a stem variant (see variants) relative to
// the query word itself. Example: "multiplication" (stem "multipl") matches
// "multiply" (stem "multipli") at 0.2 of its weight; measured on the bench
// dev sets, 0.2 gains about +0.004 nDCG@10 and 0.6 already loses.
const variantWeight = 0.2

// variants returns the terms that extend one of ids or that one of ids
// extends, when the shorter of the two has at least minVariantLen bytes:
// stems of one word family that the stemmer left apart ("multipl" of
// "multiplication" and "multipli" of "multiply"; "photo" and "photograph").
func (ix *Index) variants(ids []int32) []int32 {
	if len(ids) == 1 {
		return ix.termData.At(int(ids[0])).variants // precomputed by NewIndex and Apply
	}
	var out []int32
	for _, id := range ids {
		out = append(out, ix.termData.At(int(id)).variants...)
	}
	return out
}

// variantsOf is variants for analyzed terms, which need not be in the index.
func (ix *Index) variantsOf(terms []string) []int32 {
	var out []int32
	for _, t := range terms {
		if len(t) < minVariantLen {
			continue
		}
		// Terms that t is a prefix of.
		for v := range ix.sortedTerms.from(t) {
			if !strings.HasPrefix(v, t) || len(out) >= maxVariants {
				break
			}
			if v != t {
				t, _ := ix.terms.get(v)
				out = append(out, t)
			}
		}
		// Terms that are a prefix of t.
		for n := minVariantLen; n < len(t); n++ {
			if v, ok := ix.terms.get(t[:n]); ok {
				out = append(out, v)
			}
		}
	}
	return out
}

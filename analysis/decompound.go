package analysis

// MinCompoundLen is the shortest token (in bytes) that [Decompound] tries to
// split. Shorter unknown tokens are usually acronyms or proper names
// ("nasa", "ebay"), not run-together words.
const MinCompoundLen = 6

// MinCompoundPart is the shortest part (in bytes) that [Decompound] splits
// off: two, so that "getorderbyid" → "get" "order" "by" "id".
const MinCompoundPart = 2

// Decompound returns a filter that splits run-together words, as tool
// authors write them ("getvideosbytag", "logoutuser"), into known words.
// A lowercase ASCII-letter token of at least MinCompoundLen bytes for which
// known returns false is split into the fewest parts (each at least
// MinCompoundPart bytes) that are all known; the token is kept and its parts
// follow it:
//
//	getvideosbytag → getvideosbytag get videos by tag
//
// Tokens that are known, or that cannot be split entirely into known words,
// pass unchanged. known must be safe for concurrent use; a catalog's own
// vocabulary (words of its descriptions) is a good dictionary.
func Decompound(known func(word string) bool) Filter {
	return FilterFunc(func(tokens []string) []string {
		var out []string
		for i, t := range tokens {
			parts := splitCompound(t, known)
			if parts == nil {
				if out != nil {
					out = append(out, t)
				}
				continue
			}
			if out == nil {
				out = append(make([]string, 0, len(tokens)+len(parts)), tokens[:i]...)
			}
			out = append(out, t)
			out = append(out, parts...)
		}
		if out == nil {
			return tokens
		}
		return out
	})
}

// splitCompound returns the fewest known parts that make up t, or nil.
func splitCompound(t string, known func(string) bool) []string {
	if len(t) < MinCompoundLen || len(t) > 64 {
		return nil
	}
	for i := 0; i < len(t); i++ {
		if c := t[i]; c < 'a' || c > 'z' {
			return nil
		}
	}
	if known(t) {
		return nil
	}
	// best[i]: fewest parts for t[:i] (0 = impossible, except best[0]);
	// from[i]: start of the last part.
	n := len(t)
	best := make([]int, n+1)
	from := make([]int, n+1)
	for i := MinCompoundPart; i <= n; i++ {
		for j := 0; j <= i-MinCompoundPart; j++ {
			if j > 0 && best[j] == 0 || j > 0 && j < MinCompoundPart {
				continue
			}
			if best[j]+1 >= best[i] && best[i] != 0 {
				continue
			}
			if known(t[j:i]) {
				best[i], from[i] = best[j]+1, j
			}
		}
	}
	if best[n] < 2 {
		return nil
	}
	parts := make([]string, best[n])
	for i, k := n, best[n]-1; i > 0; i, k = from[i], k-1 {
		parts[k] = t[from[i]:i]
	}
	return parts
}

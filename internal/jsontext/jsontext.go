// Package jsontext says why JSON text is not valid, for messages: the one
// place that tells a value nested too deep (valid JSON that the decoder
// refuses) from text that is not JSON.
package jsontext

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// MaxDepth is how deeply encoding/json lets objects and arrays nest: a
// value nested deeper is refused, though it is valid JSON.
const MaxDepth = 10000

// Problem returns "" when b is valid JSON, and otherwise what is wrong in
// words that fit after "is": "nested 10,001 or more levels deep, over the
// JSON decoder's limit of 10,000" or "not valid JSON".
func Problem(b []byte) string {
	if json.Valid(b) {
		return ""
	}
	if Depth(b) > MaxDepth {
		return fmt.Sprintf("nested more than %d levels deep (objects and arrays inside each other), over the JSON decoder's limit", MaxDepth)
	}
	return "not valid JSON"
}

// Depth is the deepest nesting of objects and arrays in b, scanning
// brackets outside strings, without validating anything else.
func Depth(b []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// DuplicateKey returns the first key that one object of b holds twice, at
// any depth, comparing keys as written (escapes are not decoded): JSON
// decoders keep the last silently, where YAML refuses a duplicate. b should
// be valid JSON; on other text the answer means nothing.
func DuplicateKey(b []byte) (string, bool) {
	type level struct {
		object    bool
		expectKey bool
		keys      []string
		set       map[string]struct{} // past smallObject keys
	}
	const smallObject = 8
	var stack []level
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '{':
			stack = append(stack, level{object: true, expectKey: true})
		case '[':
			stack = append(stack, level{})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 && stack[n-1].object {
				stack[n-1].expectKey = true
			}
		case '"':
			j := stringEnd(b, i)
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].expectKey && j <= len(b) {
				top := &stack[n-1]
				top.expectKey = false
				key := b[i+1 : min(j, len(b))]
				if top.set != nil {
					if _, dup := top.set[string(key)]; dup {
						return string(key), true
					}
					top.set[string(key)] = struct{}{}
				} else {
					for _, k := range top.keys {
						if k == string(key) {
							return k, true
						}
					}
					top.keys = append(top.keys, string(key))
					if len(top.keys) > smallObject {
						top.set = make(map[string]struct{}, 2*smallObject)
						for _, k := range top.keys {
							top.set[k] = struct{}{}
						}
						top.keys = nil
					}
				}
			}
			i = j
		}
	}
	return "", false
}

// stringEnd returns the index of the quote that closes the string opening
// at b[open], or len(b). It jumps from quote to quote (bytes.IndexByte),
// so that a 50 MB description costs a few milliseconds.
func stringEnd(b []byte, open int) int {
	j := open + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b)
		}
		j += k
		escapes := 0
		for p := j - 1; p > open && b[p] == '\\'; p-- {
			escapes++
		}
		if escapes%2 == 0 {
			return j
		}
		j++
	}
}

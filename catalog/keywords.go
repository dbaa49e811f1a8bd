package catalog

import (
	"bytes"
	"encoding/json"
	"strings"
)

// KeywordsAnnotation is the tool annotation that holds search-only text:
// words and synonyms an operator adds so that searches find the tool,
// which the keyword index searches in a field of its own and which is
// never sent to a model (GetToolset strips it from the annotations it
// sends):
//
//	"annotations": {"toolsearch/keywords": "invoice bill receipt"}
//	"annotations": {"toolsearch/keywords": ["invoice", "bill", "receipt"]}
const KeywordsAnnotation = "toolsearch/keywords"

// Keywords returns the tool's KeywordsAnnotation text: a string as is, a
// list of strings joined by spaces; "" when absent or of another type.
func (t Tool) Keywords() string {
	if len(t.Annotations) == 0 || !bytes.Contains(t.Annotations, []byte(KeywordsAnnotation)) {
		return ""
	}
	var a map[string]json.RawMessage
	if json.Unmarshal(t.Annotations, &a) != nil {
		return ""
	}
	raw := a[KeywordsAnnotation]
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return strings.TrimSpace(strings.Join(list, " "))
	}
	return ""
}

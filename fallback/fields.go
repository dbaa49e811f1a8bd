package fallback

import "strings"

// field is one searchable part of a tool.
type field int

const (
	fieldName      field = iota // the tool's own name, split into words (after the last "__")
	fieldServer                 // the server (or the name's "server__" prefix)
	fieldCategory               // the category
	fieldDesc                   // the description
	fieldParamName              // parameter names, split into words
	fieldParamDesc              // parameter descriptions
	fieldKeywords               // search-only text (Document.Keywords)
	numFields
)

var fieldNames = [numFields]string{"name", "server", "category", "description", "param", "param_desc", "keywords"}

func (f field) String() string { return fieldNames[f] }

// fieldWeight is the BM25F weight of each field: a term occurrence in a field
// counts as fieldWeight occurrences of an average-length document. Names are
// what tool authors choose most carefully, so a name word counts three
// description words; parameters describe inputs, not what the tool does, so
// they count less; search-only keywords count as description words.
//
// Worked example: "weather" once in the name and once in the description of
// a tool whose fields have average length gives a pseudo term frequency of
// 3.0 + 1.0 = 4.0, saturated by bm25K1 to 4.0/(1.2+4.0) = 0.77 of the term's
// IDF.
var fieldWeight = [numFields]float64{
	fieldName:      3.0,
	fieldServer:    1.0,
	fieldCategory:  0.5,
	fieldDesc:      1.0,
	fieldParamName: 0.7,
	fieldParamDesc: 0.4,
	fieldKeywords:  1.0,
}

// fieldB is BM25's length normalization per field (0: none, 1: full). Names
// are short and their length says little, so they are normalized less than
// descriptions.
//
// Worked example: with b = 0.75, a description twice the average length
// divides its term frequencies by 1 - 0.75 + 0.75*2 = 1.75.
var fieldB = [numFields]float64{
	fieldName:      0.5,
	fieldServer:    0.5,
	fieldCategory:  0.0,
	fieldDesc:      0.75,
	fieldParamName: 0.5,
	fieldParamDesc: 0.75,
	fieldKeywords:  0.5,
}

// bm25K1 is BM25's term-frequency saturation: a term's contribution is
// IDF × tf/(bm25K1 + tf) for the field-weighted, length-normalized tf.
//
// Worked example: tf = 1 gives 1/2.2 = 0.45 of the IDF, tf = 3 gives 0.71,
// and no tf can exceed 1.0 × IDF.
const bm25K1 = 1.2

// Document is one tool, as strings. Its ID is its position in the slice
// given to NewIndex.
type Document struct {
	// Name is the tool's unique name, e.g. "github__create_issue".
	Name string
	// Server is the MCP server (or API) the tool belongs to; may be empty.
	Server string
	// Category is a free-form grouping; may be empty.
	Category string
	// Description is the tool's description; may be empty.
	Description string
	// ParamNames and ParamDescs are the input parameters' names and
	// descriptions (parallel slices; either may be shorter).
	ParamNames, ParamDescs []string
	// Keywords is search-only text (words and synonyms an operator added
	// for search, never shown to a model), indexed in a field of its own;
	// may be empty.
	Keywords string
}

// localName returns the part of a tool name after its last "__" (the MCP
// server separator), or the whole name.
func localName(name string) string {
	if i := strings.LastIndex(name, "__"); i >= 0 && i+2 < len(name) {
		return name[i+2:]
	}
	return name
}

// serverPrefix returns the part of a tool name before its last "__", or "".
func serverPrefix(name string) string {
	if i := strings.LastIndex(name, "__"); i > 0 {
		return name[:i]
	}
	return ""
}

// fieldTexts returns the text of each field of d.
func fieldTexts(d *Document) [numFields]string {
	var t [numFields]string
	t[fieldName] = localName(d.Name)
	t[fieldServer] = d.Server
	if t[fieldServer] == "" {
		t[fieldServer] = serverPrefix(d.Name)
	}
	t[fieldCategory] = d.Category
	t[fieldDesc] = d.Description
	t[fieldParamName] = strings.Join(d.ParamNames, " ")
	t[fieldParamDesc] = strings.Join(d.ParamDescs, " ")
	t[fieldKeywords] = d.Keywords
	return t
}

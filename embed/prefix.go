package embed

import "strings"

// Prefixes are the strings a model family expects in front of what it embeds:
// retrieval models trained with instructions embed a query and a document
// differently, and lose accuracy when the prefix is missing.
type Prefixes struct {
	// Query is put in front of search queries.
	Query string
	// Document is put in front of documents (tools' texts).
	Document string
}

// For returns the prefix for a text of the given kind.
func (p Prefixes) For(kind Kind) string {
	if kind == Query {
		return p.Query
	}
	return p.Document
}

// retrievalInstruction is the query instruction of the BGE and
// mxbai/arctic-embed v1 families.
const retrievalInstruction = "Represent this sentence for searching relevant passages: "

// modelPrefixes is the table of prefixes per model family, from each model's
// card. A family matches a model name (without registry, namespace and tag)
// equal to it or starting with it followed by "-", "_", "." or a digit; the
// longest matching family wins.
//
//	family                  query                                            document
//	nomic-embed-text        "search_query: "                                 "search_document: "
//	mxbai-embed-large       "Represent this sentence for searching …: "      —
//	snowflake-arctic-embed  "Represent this sentence for searching …: "      —
//	snowflake-arctic-embed2 "query: "                                        —
//	bge-large, bge-base     "Represent this sentence for searching …: "      —
//	embeddinggemma          "task: search result | query: "                  "title: none | text: "
//	qwen3-embedding         "Instruct: Given a web search query, …\nQuery:"  —
//	e5, multilingual-e5     "query: "                                        "passage: "
//	all-minilm, bge-m3, granite-embedding, paraphrase-multilingual: none
//
// Models not in the table get no prefix; OllamaConfig.Prefixes overrides the
// table for them.
var modelPrefixes = map[string]Prefixes{
	"nomic-embed-text":        {Query: "search_query: ", Document: "search_document: "},
	"mxbai-embed-large":       {Query: retrievalInstruction},
	"snowflake-arctic-embed":  {Query: retrievalInstruction},
	"snowflake-arctic-embed2": {Query: "query: "},
	"bge-large":               {Query: retrievalInstruction},
	"bge-base":                {Query: retrievalInstruction},
	"bge-small":               {Query: retrievalInstruction},
	"embeddinggemma":          {Query: "task: search result | query: ", Document: "title: none | text: "},
	"qwen3-embedding":         {Query: "Instruct: Given a web search query, retrieve relevant passages that answer the query\nQuery:"},
	"e5":                      {Query: "query: ", Document: "passage: "},
	"multilingual-e5":         {Query: "query: ", Document: "passage: "},
	"all-minilm":              {},
	"bge-m3":                  {},
	"granite-embedding":       {},
	"paraphrase-multilingual": {},
}

// PrefixesFor returns the prefixes of the model family of an Ollama model
// name such as "nomic-embed-text", "nomic-embed-text:v1.5",
// "library/mxbai-embed-large:latest" or "hf.co/user/Qwen3-Embedding-0.6B-GGUF",
// and whether the family is in the table. Unknown models get no prefixes.
func PrefixesFor(model string) (Prefixes, bool) {
	name := strings.ToLower(model)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.IndexByte(name, ':'); i >= 0 {
		name = name[:i]
	}
	best, found := "", false
	for family := range modelPrefixes {
		if len(family) > len(best) && familyMatches(name, family) {
			best, found = family, true
		}
	}
	return modelPrefixes[best], found
}

func familyMatches(name, family string) bool {
	if !strings.HasPrefix(name, family) {
		return false
	}
	if len(name) == len(family) {
		return true
	}
	switch c := name[len(family)]; {
	case c == '-', c == '_', c == '.':
		return true
	case c >= '0' && c <= '9':
		return true
	}
	return false
}

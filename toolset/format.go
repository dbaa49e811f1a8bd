package toolset

import (
	"fmt"
	"hash/fnv"
	"strings"
)

// Format is a model provider's tool-definition format.
type Format string

// Formats.
const (
	// OpenAIChat is the Chat Completions "tools" array:
	// [{"type":"function","function":{"name","description","parameters"}}].
	OpenAIChat Format = "openai_chat"
	// OpenAIResponses is the Responses API "tools" array:
	// [{"type":"function","name","description","parameters","strict":false}].
	OpenAIResponses Format = "openai_responses"
	// Anthropic is the Messages API "tools" array:
	// [{"name","description","input_schema"}].
	Anthropic Format = "anthropic"
	// Gemini is the generateContent "tools" array, one Tool holding every
	// declaration: [{"functionDeclarations":[{"name","description","parametersJsonSchema"}]}].
	Gemini Format = "gemini"
	// MCP is the "tools" array of an MCP tools/list result:
	// [{"name","description","inputSchema","annotations"}].
	MCP Format = "mcp"
)

// Formats lists every format, in documentation order.
var Formats = []Format{OpenAIChat, OpenAIResponses, Anthropic, Gemini, MCP}

// encoder turns definitions into one format's JSON values.
type encoder interface {
	// tool is the JSON value of one tool definition.
	tool(d Definition) any
	// names is the format's rule for tool names.
	names() nameRule
}

func encoderFor(f Format) (encoder, error) {
	switch f {
	case OpenAIChat:
		return openAIChat{}, nil
	case OpenAIResponses:
		return openAIResponses{}, nil
	case Anthropic:
		return anthropic{}, nil
	case Gemini:
		return gemini{}, nil
	case MCP:
		return mcp{}, nil
	}
	return nil, invalid("format %q is not known; use one of %s", f, formatList())
}

func formatList() string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// nameRule is what a provider accepts as a tool name.
type nameRule struct {
	// max is the longest name, in bytes (the allowed characters are ASCII).
	max int
	// char reports whether r may appear in a name; first is true for the
	// first character.
	char func(r rune, first bool) bool
}

// valid reports whether name satisfies the rule.
func (nr nameRule) valid(name string) bool {
	if name == "" || len(name) > nr.max {
		return false
	}
	for i, r := range name {
		if !nr.char(r, i == 0) {
			return false
		}
	}
	return true
}

// nameHashLen is the number of hex digits of the hash that makes a
// rewritten name unique: 8 digits (32 bits) make a collision between two
// rewritten names of one catalog unlikely below about 10,000 of them, and
// Build reports one if it happens.
const nameHashLen = 8

// providerName returns the name under which the provider sees a catalog
// tool: the name itself when the provider accepts it and it is not
// reserved, otherwise the name with every character the provider rejects
// replaced by '_', cut to fit, and suffixed with '_' and a hash of the full
// name (so "weather.get_forecast" becomes "weather_get_forecast_" and eight
// hex digits). The result depends on the name
// alone, so it is the same on every turn.
func (nr nameRule) providerName(name string) string {
	if nr.valid(name) && name != SearchToolName {
		return name
	}
	var b strings.Builder
	for i, r := range name {
		switch {
		case nr.char(r, i == 0):
			b.WriteRune(r)
		case i == 0 && nr.char('_', true):
			b.WriteByte('_')
			if nr.char(r, false) {
				b.WriteRune(r)
			}
		default:
			b.WriteByte('_')
		}
	}
	base := b.String()
	if keep := nr.max - nameHashLen - 1; len(base) > keep {
		base = base[:keep]
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("%s_%0*x", base, nameHashLen, h.Sum32())
}

// asciiWord reports whether r is an ASCII letter, digit or underscore.
func asciiWord(r rune) bool {
	return r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// Name rules, from each provider's API reference.
var (
	// openAINames: "a-z, A-Z, 0-9, or contain underscores and dashes, with a
	// maximum length of 64" (OpenAI function name; Anthropic's tool name
	// pattern ^[a-zA-Z0-9_-]{1,64}$ is the same).
	openAINames = nameRule{max: 64, char: func(r rune, _ bool) bool { return asciiWord(r) || r == '-' }}
	// geminiNames: "must start with a letter or an underscore; a-z, A-Z,
	// 0-9, underscores, dots and dashes", at most 63 (some Gemini SDKs say
	// 64 and allow colons; 63 without colons satisfies every version).
	geminiNames = nameRule{max: 63, char: func(r rune, first bool) bool {
		if first {
			return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		}
		return asciiWord(r) || r == '.' || r == '-'
	}}
	// mcpNames: the MCP specification's tool names, 1 to 128 characters of
	// A-Z, a-z, 0-9, '_', '-' and '.'.
	mcpNames = nameRule{max: 128, char: func(r rune, _ bool) bool { return asciiWord(r) || r == '-' || r == '.' }}
)

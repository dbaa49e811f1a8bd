package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/itchyny/gojq"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ReadOutputName is the tool that reads kept results back. Stateless mode
// lists it always; session mode lists it once the session has a kept
// result (the list grows, and the session is sent list_changed).
const ReadOutputName = "read_output"

// Limits of one read_output answer.
const (
	// defaultReadLength and maxReadLength are a character range's default
	// and largest length.
	defaultReadLength = 4000
	maxReadLength     = 16000
	// maxSearchMatches is the most matching lines a text search returns,
	// each cut to searchLineLength characters.
	maxSearchMatches = 20
	searchLineLength = 300
	// jqTimeout bounds a jq query's run.
	jqTimeout = 2 * time.Second
)

// readOutputSchema is read_output's input schema.
const readOutputSchema = `{"type":"object","properties":{` +
	`"handle":{"type":"string","description":"The output handle a tool result gave (out-…)."},` +
	`"offset":{"type":"integer","minimum":0,"description":"Read from this character on (default 0)."},` +
	`"length":{"type":"integer","minimum":1,"maximum":16000,"description":"How many characters to read (default 4000)."},` +
	`"search":{"type":"string","description":"Instead of a range: the lines that contain this text (case-insensitive), with their line numbers and offsets."},` +
	`"jq":{"type":"string","description":"Instead of a range: a jq query over the result's JSON, e.g. .items[] | select(.status == \"open\") | .id"}` +
	`},"required":["handle"]}`

const readOutputDescription = "Read a large tool result that was kept out of the conversation: by character range " +
	"({\"handle\": H, \"offset\": 0, \"length\": 4000}), by text search ({\"handle\": H, \"search\": \"error\"}), " +
	"or by a jq query over its JSON ({\"handle\": H, \"jq\": \".items | length\"})."

// readOutputDefinition is read_output's tools/list entry.
func readOutputDefinition() *mcp.Tool {
	return &mcp.Tool{Name: ReadOutputName, Description: readOutputDescription, InputSchema: json.RawMessage(readOutputSchema)}
}

// keepLarge returns res, or when its text is over the inline limit, a
// result holding a preview and the handle under which the whole result is
// kept. Results with non-text content, tool errors, and structured results
// of a tool whose outputSchema the client holds (structured) pass
// unchanged.
func (s *Server) keepLarge(tool string, res *mcp.CallToolResult, structured bool) *mcp.CallToolResult {
	if res == nil || res.IsError || s.cfg.InlineOutput < 0 {
		return res
	}
	var text strings.Builder
	for _, c := range res.Content {
		tc, ok := c.(*mcp.TextContent)
		if !ok {
			return res
		}
		text.WriteString(tc.Text)
	}
	var sc json.RawMessage
	if res.StructuredContent != nil {
		if structured {
			return res
		}
		var err error
		if sc, err = json.Marshal(res.StructuredContent); err != nil {
			return res
		}
	}
	size := text.Len() + len(sc)
	if size <= s.cfg.InlineOutput {
		return res
	}
	if size > MaxKeptOutput {
		return toolError("%s answered %d bytes, over the %d bytes this endpoint keeps for read_output: call it again asking for less "+
			"(a narrower query, a page or a limit).", tool, size, MaxKeptOutput)
	}
	body := text.String()
	if body == "" {
		body = string(sc)
	}
	o, err := s.outputs.keep(tool, body, sc)
	if err != nil {
		return res
	}
	n := utf8.RuneCountInString(body)
	preview := clipRunes(body, OutputPreview)
	kind := "text"
	if o.value != nil {
		kind = "JSON"
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(
		"%s answered %d characters of %s, kept out of the conversation under the handle %s for %v. The first %d characters:\n%s\n\n"+
			"Read more with read_output {\"handle\": %q} and \"offset\"/\"length\", \"search\": TEXT, or \"jq\": QUERY (for JSON).",
		tool, n, kind, o.handle, OutputTTL, utf8.RuneCountInString(preview), preview, o.handle)}}}
}

// readOutputArgs are read_output's arguments.
type readOutputArgs struct {
	Handle string  `json:"handle"`
	Offset int     `json:"offset"`
	Length int     `json:"length"`
	Search *string `json:"search"`
	JQ     *string `json:"jq"`
}

// readOutput answers read_output.
func (s *Server) readOutput(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args readOutputArgs
	if len(req.Params.Arguments) > 0 {
		if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
			return toolError("read_output arguments: %v; send {\"handle\": \"out-…\", \"offset\": 0, \"length\": 4000}", err), nil
		}
	}
	o, ok := s.outputs.get(args.Handle)
	if !ok {
		return toolError("read_output: no kept result has the handle %q (results are kept for %v, and the oldest are dropped "+
			"past %d MiB); call the tool again.", args.Handle, OutputTTL, OutputStoreBytes>>20), nil
	}
	switch {
	case args.JQ != nil:
		return s.readJQ(ctx, o, *args.JQ), nil
	case args.Search != nil:
		return readSearch(o, *args.Search), nil
	}
	if args.Offset < 0 {
		return toolError("read_output: offset %d: use 0 or more", args.Offset), nil
	}
	length := args.Length
	if length <= 0 {
		length = defaultReadLength
	}
	length = min(length, maxReadLength)
	total := utf8.RuneCountInString(o.text)
	part := sliceRunes(o.text, args.Offset, length)
	end := min(args.Offset+utf8.RuneCountInString(part), total)
	return textResult(fmt.Sprintf("[characters %d–%d of %d]\n%s", args.Offset, end, total, part)), nil
}

// readSearch returns the lines of o that contain query, case-insensitively.
func readSearch(o *keptOutput, query string) *mcp.CallToolResult {
	if query == "" {
		return toolError("read_output: search is empty; give the text to look for")
	}
	q := strings.ToLower(query)
	var b strings.Builder
	matches, offset := 0, 0
	for i, line := range strings.Split(o.text, "\n") {
		if strings.Contains(strings.ToLower(line), q) {
			matches++
			if matches <= maxSearchMatches {
				fmt.Fprintf(&b, "line %d (character %d): %s\n", i+1, offset, clipRunes(line, searchLineLength))
			}
		}
		offset += utf8.RuneCountInString(line) + 1
	}
	switch {
	case matches == 0:
		return textResult(fmt.Sprintf("no line contains %q", query))
	case matches > maxSearchMatches:
		fmt.Fprintf(&b, "… and %d more matching lines: search for something narrower, or read a range.", matches-maxSearchMatches)
	}
	return textResult(b.String())
}

// readJQ runs a jq query (gojq, with no access to the environment, files
// or modules) over o's JSON value, within jqTimeout, and returns its
// results, one JSON value per line, cut at maxReadLength characters.
func (s *Server) readJQ(ctx context.Context, o *keptOutput, expr string) *mcp.CallToolResult {
	if o.value == nil {
		return toolError("read_output: this result is not JSON; read it by range or search it instead of jq")
	}
	q, err := gojq.Parse(expr)
	if err != nil {
		return toolError("read_output: jq query %q: %v", expr, err)
	}
	code, err := gojq.Compile(q)
	if err != nil {
		return toolError("read_output: jq query %q: %v", expr, err)
	}
	ctx, cancel := context.WithTimeout(ctx, jqTimeout)
	defer cancel()
	var b strings.Builder
	iter := code.RunWithContext(ctx, o.value)
	for n := 0; ; n++ {
		v, ok := iter.Next()
		if !ok {
			break
		}
		if err, ok := v.(error); ok {
			if ctx.Err() != nil {
				return toolError("read_output: the jq query ran past %v; make it simpler", jqTimeout)
			}
			return toolError("read_output: jq query %q: %v", expr, err)
		}
		out, err := gojq.Marshal(v)
		if err != nil {
			return toolError("read_output: jq result: %v", err)
		}
		if b.Len()+len(out) > maxReadLength {
			fmt.Fprintf(&b, "… (cut at %d characters: narrow the query)", maxReadLength)
			break
		}
		b.Write(out)
		b.WriteByte('\n')
	}
	if b.Len() == 0 {
		return textResult("(the query returned nothing)")
	}
	return textResult(strings.TrimSuffix(b.String(), "\n"))
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// clipRunes returns s's first n characters.
func clipRunes(s string, n int) string {
	return sliceRunes(s, 0, n)
}

// sliceRunes returns the characters [offset, offset+n) of s.
func sliceRunes(s string, offset, n int) string {
	start := -1
	i := 0
	for pos := range s {
		if i == offset {
			start = pos
		}
		if i == offset+n {
			return s[start:pos]
		}
		i++
	}
	if start < 0 {
		return ""
	}
	return s[start:]
}

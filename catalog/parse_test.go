package catalog

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsearch/toolsearch/internal/safefile"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// goldenTool is how a parsed tool is written to a golden file.
type goldenTool struct {
	Name        string          `json:"name"`
	Server      string          `json:"server,omitempty"`
	Category    string          `json:"category,omitempty"`
	Description string          `json:"description,omitempty"`
	Summary     string          `json:"summary,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
	Parameters  []Parameter     `json:"parameters,omitempty"`
}

func golden(tools []Tool) []byte {
	out := make([]goldenTool, len(tools))
	for i, t := range tools {
		out[i] = goldenTool{t.Name, t.Server, t.Category, t.Description, t.Summary(), t.InputSchema, t.Annotations, t.Parameters()}
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		panic(err) // test helper: tools from Parse always marshal
	}
	return append(data, '\n')
}

func TestParseGood(t *testing.T) {
	tests := []struct {
		file   string
		server string
		golden string
	}{
		{file: "mcp.json", golden: "mcp.golden.json"},
		{file: "mcp.json", server: "gh", golden: "mcp_gh.golden.json"},
		{file: "mcp_envelope.json", golden: "mcp_envelope.golden.json"},
		{file: "openai.json", golden: "openai.golden.json"},
		{file: "openai_responses.json", golden: "openai_responses.golden.json"},
		{file: "anthropic.json", golden: "anthropic.golden.json"},
		{file: "plain.json", golden: "plain.golden.json"},
		{file: "tools.jsonl", golden: "tools_jsonl.golden.json"},
		{file: "tools.jsonl", server: "bench", golden: "tools_jsonl_bench.golden.json"},
		{file: "tools.yaml", golden: "tools_yaml.golden.json"},
		{file: "list.yaml", golden: "list_yaml.golden.json"},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			path := filepath.Join("testdata", tt.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			tools, err := Parse(data, path, tt.server)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if err := Validate(tools); err != nil {
				t.Errorf("Validate(Parse(...)): %v", err)
			}
			got := golden(tools)
			goldenPath := filepath.Join("testdata", "golden", tt.golden)
			if *update {
				if err := os.WriteFile(goldenPath, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(goldenPath)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("Parse(%s) mismatch (-want +got):\n%s", tt.file, diff)
			}
		})
	}
}

// TestParseFormatsAgree checks that the same tool written in each format
// parses to the same Tool.
func TestParseFormatsAgree(t *testing.T) {
	const schema = `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`
	want := []Tool{{
		Name:        "get_weather",
		Description: "Get the weather.",
		InputSchema: json.RawMessage(schema),
	}}
	inputs := map[string]string{
		"mcp":             `{"tools":[{"name":"get_weather","description":"Get the weather.","inputSchema":` + schema + `}]}`,
		"jsonrpc":         `{"jsonrpc":"2.0","id":7,"result":{"tools":[{"name":"get_weather","description":"Get the weather.","inputSchema":` + schema + `}]}}`,
		"openai":          `[{"type":"function","function":{"name":"get_weather","description":"Get the weather.","parameters":` + schema + `}}]`,
		"openai flat":     `[{"type":"function","name":"get_weather","description":"Get the weather.","parameters":` + schema + `}]`,
		"anthropic":       `[{"name":"get_weather","description":"Get the weather.","input_schema":` + schema + `}]`,
		"plain schema":    `[{"name":"get_weather","description":"Get the weather.","schema":` + schema + `}]`,
		"jsonl":           `{"name":"get_weather","description":"Get the weather.","input_schema":` + schema + "}\n\n",
		"single object":   `{"name":"get_weather","description":"Get the weather.","input_schema":` + schema + `}`,
		"pretty object":   "{\n  \"name\": \"get_weather\",\n  \"description\": \"Get the weather.\",\n  \"input_schema\": " + schema + "\n}\n",
		"yaml tools":      "tools:\n  - name: get_weather\n    description: Get the weather.\n    inputSchema:\n      type: object\n      properties:\n        city: {type: string}\n      required: [city]\n",
		"yaml list":       "- name: get_weather\n  description: '  Get the weather.  '\n  parameters: " + schema + "\n",
		"yaml result":     "result:\n  tools:\n    - name: get_weather\n      description: Get the weather.\n      input_schema: " + schema + "\n",
		"byte order mark": "\xef\xbb\xbf" + `[{"name":"get_weather","description":"Get the weather.","input_schema":` + schema + `}]`,
	}
	for name, input := range inputs {
		t.Run(name, func(t *testing.T) {
			got, err := Parse([]byte(input), name, "")
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(want, got, cmpJSON); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// cmpJSON compares raw JSON by value, so that YAML (whose mappings come
// back with sorted keys) and JSON inputs compare equal.
var cmpJSON = cmp.Transformer("json", func(raw json.RawMessage) any {
	if raw == nil {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "invalid JSON: " + string(raw)
	}
	return v
})

func TestParseNamespace(t *testing.T) {
	tests := []struct {
		name       string
		input      string
		server     string
		wantName   string
		wantServer string
	}{
		{"prefixed", `[{"name":"create_issue"}]`, "gh", "gh__create_issue", "gh"},
		{"not double-prefixed", `[{"name":"gh__create_issue"}]`, "gh", "gh__create_issue", "gh"},
		{"other prefix kept inside", `[{"name":"jira__create_issue"}]`, "gh", "gh__jira__create_issue", "gh"},
		{"namespace beats record server", `{"name":"x","server":"rec"}` + "\n\n", "gh", "gh__x", "gh"},
		{"record server", `{"name":"x","server":" rec "}` + "\n\n", "", "x", "rec"},
		{"server from name", `[{"name":"slack__send_message"}]`, "", "slack__send_message", "slack"},
		{"server from first separator", `[{"name":"a__b__c"}]`, "", "a__b__c", "a"},
		{"no server", `[{"name":"send_message"}]`, "", "send_message", ""},
		{"leading separator", `[{"name":"__x"}]`, "", "__x", ""},
		{"trimmed namespace", `[{"name":" x "}]`, " gh ", "gh__x", "gh"},
		{"openai without type", `[{"function":{"name":"f"}}]`, "", "f", ""},
		{"own name beats function field", `[{"name":"g","function":{"name":"f"}}]`, "", "g", ""},
		{"openai type wins", `[{"type":"function","name":"g","function":{"name":"f"}}]`, "", "f", ""},
		{"server from openai wrapper", `[{"type":"function","server":"s","function":{"name":"f"}}]`, "", "f", "s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tools, err := Parse([]byte(tt.input), "test.json", tt.server)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got := [2]string{tools[0].Name, tools[0].Server}
			if diff := cmp.Diff([2]string{tt.wantName, tt.wantServer}, got); diff != "" {
				t.Errorf("name, server mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseBad(t *testing.T) {
	const (
		objectFix = `fix: give each tool as an object with "name", "description" and an input schema`
		nameFix   = `fix: use letters, digits, '_', '-' and '.'; replace spaces with '_'`
		dupFix    = `fix: rename one of the tools, or load their files under different server namespaces`
	)
	tests := []struct {
		file string
		want string
	}{
		{"empty.json", `testdata/bad/empty.json: file is empty; fix: give a tools/list result {"tools":[...]}, an array of tools, one tool per line (JSONL), or YAML`},
		{"syntax.json", `testdata/bad/syntax.json: line 3:38: invalid JSON: invalid character '}' looking for beginning of object key string; fix: correct the JSON syntax at that position`},
		{"schema.json", `2 problems in tool definitions:
	testdata/bad/schema.json: tools[3] ("get weather"): input schema is a string, want a JSON object; fix: give "inputSchema" as an object such as {"type":"object","properties":{...}}
	testdata/bad/schema.json: tools[3] ("get weather"): name contains a space at character 4; ` + nameFix},
		{"names.json", `6 problems in tool definitions:
	testdata/bad/names.json: tools[0]: name is empty; fix: give every tool a non-empty "name"
	testdata/bad/names.json: tools[1] ("` + strings.Repeat("x", 79) + `…"): name is 257 characters long, over the limit of 128; fix: shorten the name
	testdata/bad/names.json: tools[2] ("bad\aname"): name contains control character U+0007 at character 4; ` + nameFix + `
	testdata/bad/names.json: tools[5] ("big"): description is 65537 bytes long, over the limit of 65536 (64 KiB); fix: shorten the description to what a model needs to choose the tool
	testdata/bad/names.json: tools[6] ("tab\tname"): name contains whitespace U+0009 at character 4; ` + nameFix + `
	testdata/bad/names.json: tools[4] ("ok"): duplicate name; first defined at testdata/bad/names.json tools[3]; ` + dupFix},
		{"types.json", `8 problems in tool definitions:
	testdata/bad/types.json: index 0: "name" is a number, want a string; fix: give the name as a JSON string such as "get_weather"
	testdata/bad/types.json: index 1: missing "name"; fix: give every tool a "name"
	testdata/bad/types.json: index 2: tool is a string, want a JSON object; ` + objectFix + `
	testdata/bad/types.json: index 3 ("d"): "description" is a number, want a string; fix: give "description" as a JSON string, or leave it out
	testdata/bad/types.json: index 3 ("d"): "category" is an array, want a string; fix: give "category" as a JSON string, or leave it out
	testdata/bad/types.json: index 4 ("e"): input schema is an array, want a JSON object; fix: give "parameters" as an object such as {"type":"object","properties":{...}}
	testdata/bad/types.json: index 4 ("e"): "annotations" is a string, want a JSON object; fix: give "annotations" as an object such as {"readOnlyHint":true}, or leave it out
	testdata/bad/types.json: index 5: "function" is a string, want a JSON object; fix: give OpenAI tools as {"type":"function","function":{"name":...,"description":...,"parameters":{...}}}`},
		{"lines.jsonl", `5 problems in tool definitions:
	testdata/bad/lines.jsonl: line 2:19: invalid JSON: unexpected end of JSON input; fix: correct the JSON syntax at that position
	testdata/bad/lines.jsonl: line 4: tool is an array, want a JSON object; ` + objectFix + `
	testdata/bad/lines.jsonl: line 5: tool is null, want a JSON object; ` + objectFix + `
	testdata/bad/lines.jsonl: line 6: missing "name"; fix: give every tool a "name"
	testdata/bad/lines.jsonl: line 7 ("ok"): duplicate name; first defined at testdata/bad/lines.jsonl line 1; ` + dupFix},
		{"utf8.json", `2 problems in tool definitions:
	testdata/bad/utf8.json: line 2:15: invalid UTF-8 (byte 0xff); fix: save the file as UTF-8: tool names and text must be UTF-8, and are not rewritten
	testdata/bad/utf8.json: line 3:39: invalid UTF-8 (byte 0xe9); fix: save the file as UTF-8: tool names and text must be UTF-8, and are not rewritten`},
		{"utf8.yaml", `testdata/bad/utf8.yaml: line 1:13: invalid UTF-8 (byte 0xc3); fix: save the file as UTF-8: tool names and text must be UTF-8, and are not rewritten`},
		{"rpc_error.json", `testdata/bad/rpc_error.json: file holds a JSON-RPC error response, not a tools/list result; fix: save the result of a successful tools/list call`},
		{"unknown.json", `testdata/bad/unknown.json: found an object with keys "functions", "version" but no "tools"; fix: give a tools/list result {"tools":[...]}, an array of tools, or one tool per line (JSONL)`},
		{"tools_object.json", `testdata/bad/tools_object.json: "tools" is an object, want an array of tools; fix: give "tools" as a JSON array: {"tools":[{"name":...},...]}`},
		{"scalar.json", `testdata/bad/scalar.json: line 1: file holds a string, want tools; fix: give a "tools:" list, a top-level list of tools, or JSON`},
		{"text.yaml", `testdata/bad/text.yaml: line 1: file holds a string, want tools; fix: give a "tools:" list, a top-level list of tools, or JSON`},
		{"syntax.yaml", `testdata/bad/syntax.yaml: line 3: invalid YAML: found unexpected end of stream; fix: correct the YAML at that line`},
		{"indent.yaml", `testdata/bad/indent.yaml: line 3: invalid YAML: did not find expected '-' indicator; fix: correct the YAML at that line`},
		{"duplicate_keys.json", `2 problems in tool definitions:
	testdata/bad/duplicate_keys.json: tools[0] ("a"): key "description" appears twice in one object; fix: keep one of them: a JSON reader would silently use the last
	testdata/bad/duplicate_keys.json: tools[1] ("b"): key "q" appears twice in one object; fix: keep one of them: a JSON reader would silently use the last`},
		{"documents.yaml", `testdata/bad/documents.yaml: line 4: file holds more than one YAML document (separated by ---); fix: put every tool in one document: one "tools:" list, or give each document a file of its own`},
		{"shape.yaml", `testdata/bad/shape.yaml: line 2: "tools" is a mapping, want a list of tools; fix: give "tools" as a YAML list, one "- name: ..." item per tool`},
		{"values.yaml", `3 problems in tool definitions:
	testdata/bad/values.yaml: line 2 ("a"): value cannot be represented in JSON: unsupported value: +Inf; fix: use only strings, numbers, booleans, null, lists and mappings
	testdata/bad/values.yaml: line 4 ("b"): value cannot be represented in JSON: unsupported value: +Inf; fix: use only strings, numbers, booleans, null, lists and mappings
	testdata/bad/values.yaml: line 9 ("c d"): name contains a space at character 2; ` + nameFix},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := "testdata/bad/" + tt.file
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			tools, err := Parse(data, path, "")
			if err == nil {
				t.Fatalf("Parse returned %d tools and no error, want an error", len(tools))
			}
			if tools != nil {
				t.Errorf("Parse returned %d tools with an error, want none", len(tools))
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("errors.Is(%v, ErrInvalid) = false, want true", err)
			}
			var verr *ValidationError
			if !errors.As(err, &verr) {
				t.Errorf("error is %T, want *ValidationError", err)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error text mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	tools, err := Load(
		Source{Path: "testdata/mcp.json", Server: "weather"},
		Source{Path: "testdata/anthropic.json"},
		Source{Path: "testdata/tools.yaml", Server: "slack"},
	)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	var got []string
	for _, tool := range tools {
		got = append(got, tool.Name)
	}
	want := []string{"weather__get_weather", "weather__ping", "weather__gh__create_issue", "get_stock_price", "slack__send_message", "slack__list_channels"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Load names mismatch (-want +got):\n%s", diff)
	}
}

func TestLoadErrors(t *testing.T) {
	pipe := filepath.Join(t.TempDir(), "catalog.json")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	tests := []struct {
		name    string
		sources []Source
		want    string
		wantIs  error
	}{
		{
			name:    "duplicates across files",
			sources: []Source{{Path: "testdata/openai.json"}, {Path: "testdata/openai_responses.json"}},
			want:    `testdata/openai_responses.json: index 0 ("get_weather"): duplicate name; first defined at testdata/openai.json index 0; fix: rename one of the tools, or load their files under different server namespaces`,
			wantIs:  ErrInvalid,
		},
		{
			name:    "problems in every file are reported",
			sources: []Source{{Path: "testdata/bad/empty.json"}, {Path: "testdata/bad/rpc_error.json"}},
			want: `2 problems in tool definitions:
	testdata/bad/empty.json: file is empty; fix: give a tools/list result {"tools":[...]}, an array of tools, one tool per line (JSONL), or YAML
	testdata/bad/rpc_error.json: file holds a JSON-RPC error response, not a tools/list result; fix: save the result of a successful tools/list call`,
			wantIs: ErrInvalid,
		},
		{
			name:    "a named pipe is refused, not waited on",
			sources: []Source{{Path: pipe}},
			want:    pipe + ": not a regular file (a named pipe (FIFO)): give a plain file",
			wantIs:  safefile.ErrNotRegular,
		},
		{
			name:    "missing file",
			sources: []Source{{Path: "testdata/no-such-file.json"}},
			want:    "open testdata/no-such-file.json: no such file or directory",
			wantIs:  os.ErrNotExist,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tools, err := Load(tt.sources...)
			if err == nil {
				t.Fatalf("Load returned %d tools and no error", len(tools))
			}
			if !errors.Is(err, tt.wantIs) {
				t.Errorf("errors.Is(%v, %v) = false, want true", err, tt.wantIs)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error text mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// A schema nested deeper than the JSON decoder allows is reported as too
// deep, not as invalid JSON.
func TestParseTooDeep(t *testing.T) {
	deep := strings.Repeat(`{"type":"object","properties":{"a":`, 5000) + "{}" + strings.Repeat("}}", 5000)
	for _, tt := range []struct{ name, data string }{
		{"JSON file", `{"tools":[{"name":"deep","description":"d","inputSchema":` + deep + `}]}`},
		{"JSONL line", `{"name":"deep","description":"d","inputSchema":` + deep + "}\n" + `{"name":"ok","description":"d"}` + "\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.data), "deep.json", "")
			if err == nil || !strings.Contains(err.Error(), "nested more than 10000 levels deep") || strings.Contains(err.Error(), "invalid JSON") {
				t.Errorf("Parse = %v; want it reported as too deep", err)
			}
		})
	}
}

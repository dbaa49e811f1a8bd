// Package catalog holds tool definitions: loading them from MCP tools/list
// results, OpenAI and Anthropic tool arrays, plain arrays and JSONL files
// (as JSON or YAML), validating and normalizing them (including the
// "server__tool" namespace), and keeping them in immutable, versioned
// snapshots that readers share without locks.
//
// # Formats
//
// Parse and Load detect the format from the content, not the file name:
//
//   - an MCP tools/list result, {"tools":[{"name","description","inputSchema","annotations"}]},
//     or the JSON-RPC response around it, {"result":{"tools":[...]}};
//   - an OpenAI tools array, [{"type":"function","function":{"name","description","parameters"}}],
//     or the Responses API flat form, [{"type":"function","name","description","parameters"}];
//   - an Anthropic tools array, [{"name","description","input_schema"}];
//   - a plain array whose schema key is any of "parameters", "input_schema",
//     "inputSchema" or "schema";
//   - JSONL: one tool object per line (blank lines are skipped), whose optional
//     "server" and "category" keys fill Tool.Server and Tool.Category;
//   - YAML holding any of the shapes above (a "tools:" list or a top-level list).
//
// Unknown keys are ignored. Every problem in a file is reported at once, as a
// *ValidationError whose Problems name the file, the line or index, the tool,
// and what to fix.
//
// JSON keeps the key order of schemas as written; YAML mappings are
// re-encoded as JSON objects with their keys sorted.
//
// # Concurrency
//
// Every function in the package is safe for concurrent use. A *Snapshot is
// immutable and may be shared by any number of goroutines; Tool, Parameter,
// Source, ServerCount, Problem and the error types are plain values, safe to
// read concurrently as long as nobody writes them.
//
// # Dependencies
//
// The package uses the standard library, plus gopkg.in/yaml.v3 for YAML files.
package catalog

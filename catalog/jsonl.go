package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// parseJSONL parses one JSON tool object per line; blank lines are skipped.
// Problems are positioned as "line N", or "line N:C" for syntax errors.
func parseJSONL(data []byte, file, ns string) ([]located, []Problem) {
	var items []located
	var problems []Problem
	n := 0
	for line := range bytes.Lines(data) {
		n++
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		line = bytes.TrimRight(line, "\r\n")
		pos := "line " + strconv.Itoa(n)
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(line, &fields); err != nil {
			var typeErr *json.UnmarshalTypeError
			if errors.As(err, &typeErr) {
				problems = append(problems, notObject(file, pos, jsonKind(line, "")))
			} else {
				problems = append(problems, jsonSyntaxProblem(line, file, n-1, err))
			}
			continue
		}
		if fields == nil { // the line is null
			problems = append(problems, notObject(file, pos, "null"))
			continue
		}
		item, ps, ok := convertFields(fields, file, pos, ns)
		problems = append(problems, ps...)
		if ok {
			items = append(items, item)
		}
	}
	return items, problems
}

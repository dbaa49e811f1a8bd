package evaluation

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// Query is one labelled query.
type Query struct {
	// ID identifies the query in its file.
	ID string `json:"id"`
	// Query is the text searched for.
	Query string `json:"query"`
	// Relevant lists every tool that counts as correct.
	Relevant []string `json:"relevant"`
	// Groups, when present, are the query's steps: any tool of a group
	// satisfies that step.
	Groups [][]string `json:"groups,omitempty"`
}

// Steps returns the query's steps: Groups when present, otherwise one step
// per relevant tool.
func (q Query) Steps() [][]string {
	if len(q.Groups) > 0 {
		return q.Groups
	}
	steps := make([][]string, len(q.Relevant))
	for i, r := range q.Relevant {
		steps[i] = []string{r}
	}
	return steps
}

// LoadQueries reads a queries.jsonl file.
func LoadQueries(path string) ([]Query, error) {
	return load(path, ReadQueries)
}

// LoadNoAnswer reads a file of no-answer queries (ReadNoAnswer).
func LoadNoAnswer(path string) ([]Query, error) {
	return load(path, ReadNoAnswer)
}

func load(path string, read func(io.Reader) ([]Query, error)) ([]Query, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	qs, err := read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return qs, nil
}

// ReadQueries reads queries in JSONL form, one object per line; blank lines
// are skipped. A query needs a non-empty query text and at least one
// relevant tool.
func ReadQueries(r io.Reader) ([]Query, error) {
	return readQueries(r, func(q Query) string {
		if strings.TrimSpace(q.Query) == "" || len(q.Steps()) == 0 {
			return `a query needs a "query" text and at least one "relevant" tool`
		}
		return ""
	})
}

// ReadNoAnswer reads no-answer queries — queries that no tool of the
// catalog serves (evaluation/testdata/noanswer) — in JSONL form: each needs
// a non-empty query text and no relevant tools. Other fields (such as
// "why") are ignored.
func ReadNoAnswer(r io.Reader) ([]Query, error) {
	return readQueries(r, func(q Query) string {
		if strings.TrimSpace(q.Query) == "" || len(q.Steps()) > 0 {
			return `a no-answer query needs a "query" text and no "relevant" tools`
		}
		return ""
	})
}

// readQueries reads JSONL queries, each checked by bad (which returns what
// is wrong, or "").
func readQueries(r io.Reader, bad func(Query) string) ([]Query, error) {
	var qs []Query
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var q Query
		if err := json.Unmarshal([]byte(text), &q); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if why := bad(q); why != "" {
			return nil, fmt.Errorf("line %d (id %q): %s", line, q.ID, why)
		}
		qs = append(qs, q)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("no queries")
	}
	return qs, nil
}

package catalog

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrInvalid is wrapped by every error that reports a problem in tool
// definitions, from a syntax error in a file to a duplicate name. Test for it
// with errors.Is; use errors.As with *ValidationError for the details.
var ErrInvalid = errors.New("invalid tool")

// ErrNotFound is wrapped by the error that Snapshot.Get and Snapshot.Delete
// return for names that are not in the snapshot. Use errors.As with
// *NotFoundError for the names.
var ErrNotFound = errors.New("tool not found")

// Problem is one thing wrong with a catalog file or a tool definition.
type Problem struct {
	// File is the file the problem is in, "" for tools not read from a file.
	File string
	// Position locates the problem inside File: "line 3" (JSONL, YAML),
	// "line 3:14" (a JSON syntax error), "tools[2]" or "index 2" (an element
	// of a JSON array, or of the slice given to Validate). "" if the problem
	// is about the file as a whole.
	Position string
	// Tool is the tool's full name, "" if unknown.
	Tool string
	// Reason says what is wrong.
	Reason string
	// Fix says what to do about it, "" if that is obvious from Reason.
	Fix string
}

// String renders the problem as one line:
//
//	file: position ("tool"): reason; fix: fix
func (p Problem) String() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
		b.WriteString(": ")
	}
	if p.Position != "" {
		b.WriteString(p.Position)
		if p.Tool != "" {
			b.WriteString(" (")
			b.WriteString(strconv.Quote(p.Tool))
			b.WriteString(")")
		}
		b.WriteString(": ")
	} else if p.Tool != "" {
		b.WriteString(strconv.Quote(p.Tool))
		b.WriteString(": ")
	}
	b.WriteString(p.Reason)
	if p.Fix != "" {
		b.WriteString("; fix: ")
		b.WriteString(p.Fix)
	}
	return b.String()
}

// maxListedProblems caps how many problems ValidationError.Error spells out;
// the rest are counted ("and 12 more"). All of them stay in Problems.
const maxListedProblems = 20

// ValidationError reports every problem found in a set of tool definitions
// (or catalog files), not only the first. It wraps ErrInvalid.
type ValidationError struct {
	// Problems lists the problems in the order of the files and of the tools
	// in them, followed by duplicate names.
	Problems []Problem
}

// Error lists the problems, one per line after the first, spelling out at
// most 20 of them.
func (e *ValidationError) Error() string {
	switch len(e.Problems) {
	case 0:
		return ErrInvalid.Error()
	case 1:
		return e.Problems[0].String()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d problems in tool definitions:", len(e.Problems))
	for i, p := range e.Problems {
		if i == maxListedProblems {
			fmt.Fprintf(&b, "\n\tand %d more", len(e.Problems)-i)
			break
		}
		b.WriteString("\n\t")
		b.WriteString(p.String())
	}
	return b.String()
}

// Unwrap returns ErrInvalid, so that errors.Is(err, ErrInvalid) holds.
func (e *ValidationError) Unwrap() error { return ErrInvalid }

// NotFoundError names the tools that were asked for but are not in a
// snapshot. It wraps ErrNotFound.
type NotFoundError struct {
	// Names are the unknown names, in the order asked, each listed once.
	Names []string
}

// Error lists the unknown names, spelling out at most 20 of them.
func (e *NotFoundError) Error() string {
	var quoted []string
	for i, n := range e.Names {
		if i == maxListedProblems {
			quoted = append(quoted, fmt.Sprintf("and %d more", len(e.Names)-i))
			break
		}
		quoted = append(quoted, strconv.Quote(n))
	}
	if len(e.Names) == 1 {
		return ErrNotFound.Error() + ": " + quoted[0]
	}
	return fmt.Sprintf("%d tools not found: %s", len(e.Names), strings.Join(quoted, ", "))
}

// Unwrap returns ErrNotFound, so that errors.Is(err, ErrNotFound) holds.
func (e *NotFoundError) Unwrap() error { return ErrNotFound }

package tracecontext

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

const valid = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

func TestParse(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // formatted result; "" means an error
	}{
		{"spec example", valid, valid},
		{"not sampled", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"},
		{"surrounding space", "  " + valid + " ", valid},
		{"future version with more fields", "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-abc", valid},
		{"empty", "", ""},
		{"upper-case hex", strings.ToUpper(valid), ""},
		{"version ff", "ff" + valid[2:], ""},
		{"version 00 too long", valid + "-00", ""},
		{"zero trace id", "00-00000000000000000000000000000000-00f067aa0ba902b7-01", ""},
		{"zero parent id", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", ""},
		{"bad separator", "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", ""},
		{"non-hex flags", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0x", ""},
		{"future version, no dash after flags", "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse(tt.in)
			if tt.want == "" {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("Parse(%q) = %v, %v; want an ErrInvalid", tt.in, p, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if got := p.String(); got != tt.want {
				t.Errorf("Parse(%q).String() = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestFromHeaders(t *testing.T) {
	tests := []struct {
		name      string
		h         map[string]string
		wantOK    bool
		wantState string
	}{
		{"parent and state", map[string]string{Header: valid, StateHeader: "congo=t61rcWkgMzE"}, true, "congo=t61rcWkgMzE"},
		{"parent only", map[string]string{Header: valid}, true, ""},
		{"state without parent", map[string]string{StateHeader: "congo=t61rcWkgMzE"}, false, ""},
		{"invalid parent", map[string]string{Header: "00-x"}, false, ""},
		{"state too long", map[string]string{Header: valid, StateHeader: strings.Repeat("a", maxStateLength+1)}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tc, ok := FromHeaders(func(k string) string { return tt.h[k] })
			if ok != tt.wantOK || tc.State != tt.wantState {
				t.Fatalf("FromHeaders = %+v, %v; want ok %v, state %q", tc, ok, tt.wantOK, tt.wantState)
			}
			if ok && tc.Fields()[Header] != valid {
				t.Errorf("Fields()[traceparent] = %q, want %q", tc.Fields()[Header], valid)
			}
		})
	}
}

func TestLogHandler(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(LogHandler(slog.NewJSONHandler(&buf, nil))).With("component", "test")
	tc, _ := FromHeaders(func(k string) string { return map[string]string{Header: valid}[k] })
	log.InfoContext(NewContext(context.Background(), tc), "traced")
	log.InfoContext(context.Background(), "untraced")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d log lines, want 2: %s", len(lines), buf.String())
	}
	var traced, untraced map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &traced); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &untraced); err != nil {
		t.Fatal(err)
	}
	if traced[TraceIDKey] != "4bf92f3577b34da6a3ce929d0e0e4736" || traced[ParentIDKey] != "00f067aa0ba902b7" || traced["component"] != "test" {
		t.Errorf("traced line = %v, want trace_id, parent_id and component", traced)
	}
	if _, ok := untraced[TraceIDKey]; ok {
		t.Errorf("untraced line = %v, want no trace_id", untraced)
	}
}

// FuzzParse: Parse never panics, and what it accepts formats back to a
// traceparent that parses to the same value.
func FuzzParse(f *testing.F) {
	f.Add(valid)
	f.Add("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-abc")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		q, err := Parse(p.String())
		if err != nil || q != p {
			t.Fatalf("Parse(%q) = %v; reparsing %q gave %v, %v", s, p, p.String(), q, err)
		}
	})
}

package tracecontext

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// Header and StateHeader are the names of the two Trace Context fields, as
// HTTP headers, gRPC metadata keys and MCP "_meta" keys alike.
const (
	Header      = "traceparent"
	StateHeader = "tracestate"
)

// maxStateLength is the longest tracestate carried on, in bytes: the spec's
// 32 list members of at most 256 bytes each, plus their commas. A longer one
// is dropped (the spec lets a vendor drop tracestate; traceparent stays).
const maxStateLength = 32*257 - 1

// ErrInvalid is wrapped by Parse's error for a traceparent that is not of
// the W3C form.
var ErrInvalid = errors.New("invalid traceparent")

// Parent is a parsed traceparent: the trace, the caller's span (parent ID)
// and the trace flags. The zero value is not valid (IsValid is false). It
// is a value, safe to copy and share.
type Parent struct {
	TraceID  [16]byte
	ParentID [8]byte
	Flags    byte
}

// IsValid reports whether p has the non-zero trace and parent IDs that the
// spec requires.
func (p Parent) IsValid() bool { return p.TraceID != [16]byte{} && p.ParentID != [8]byte{} }

// Sampled reports the sampled flag (bit 0 of the trace flags).
func (p Parent) Sampled() bool { return p.Flags&1 == 1 }

// String formats p as a version-00 traceparent, e.g.
// "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".
func (p Parent) String() string {
	return fmt.Sprintf("00-%x-%x-%02x", p.TraceID[:], p.ParentID[:], p.Flags)
}

// TraceIDString is the trace ID in lower-case hex (32 characters).
func (p Parent) TraceIDString() string { return hex.EncodeToString(p.TraceID[:]) }

// ParentIDString is the parent (span) ID in lower-case hex (16 characters).
func (p Parent) ParentIDString() string { return hex.EncodeToString(p.ParentID[:]) }

// Parse parses a traceparent header value. Version 00 must be exactly
// "00-<32 hex>-<16 hex>-<2 hex>"; a later version may carry more fields
// after a "-", which are ignored (the spec's forward compatibility). Hex
// must be lower case; all-zero IDs and version ff are invalid. Errors wrap
// ErrInvalid and never quote more than the header's length.
func Parse(s string) (Parent, error) {
	var p Parent
	s = strings.TrimSpace(s)
	if len(s) < 55 {
		return p, fmt.Errorf("%w: %d characters, want 55 (00-<trace-id>-<parent-id>-<flags>)", ErrInvalid, len(s))
	}
	version, ok := hexByte(s[0:2])
	if !ok || version == 0xff {
		return p, fmt.Errorf("%w: version is not two lower-case hex digits other than ff", ErrInvalid)
	}
	if version == 0 && len(s) != 55 {
		return p, fmt.Errorf("%w: version 00 has %d characters, want 55", ErrInvalid, len(s))
	}
	if len(s) > 55 && s[55] != '-' {
		return p, fmt.Errorf("%w: fields after the flags must follow a '-'", ErrInvalid)
	}
	if s[2] != '-' || s[35] != '-' || s[52] != '-' {
		return p, fmt.Errorf("%w: fields are not separated by '-' at the spec's offsets", ErrInvalid)
	}
	if !hexInto(p.TraceID[:], s[3:35]) {
		return p, fmt.Errorf("%w: trace-id is not 32 lower-case hex digits", ErrInvalid)
	}
	if !hexInto(p.ParentID[:], s[36:52]) {
		return p, fmt.Errorf("%w: parent-id is not 16 lower-case hex digits", ErrInvalid)
	}
	if p.Flags, ok = hexByte(s[53:55]); !ok {
		return p, fmt.Errorf("%w: trace-flags is not two lower-case hex digits", ErrInvalid)
	}
	if !p.IsValid() {
		return Parent{}, fmt.Errorf("%w: trace-id and parent-id must not be all zeros", ErrInvalid)
	}
	return p, nil
}

// hexInto decodes lower-case hex s into dst (len(s) == 2*len(dst)).
func hexInto(dst []byte, s string) bool {
	for i := range dst {
		b, ok := hexByte(s[2*i : 2*i+2])
		if !ok {
			return false
		}
		dst[i] = b
	}
	return true
}

// hexByte decodes two lower-case hex digits.
func hexByte(s string) (byte, bool) {
	var b byte
	for i := 0; i < 2; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			b = b<<4 | (c - '0')
		case c >= 'a' && c <= 'f':
			b = b<<4 | (c - 'a' + 10)
		default:
			return 0, false
		}
	}
	return b, true
}

// Context is the trace context of one call: its parent and the tracestate
// that came with it ("" when none), carried on unchanged. A value, safe to
// copy and share.
type Context struct {
	Parent Parent
	State  string
}

// FromHeaders builds a Context from the values of the traceparent and
// tracestate fields (get returns "" for a missing field). ok is false when
// there is no valid traceparent; a tracestate without one is ignored, as
// the spec says, and so is one longer than the spec allows.
func FromHeaders(get func(name string) string) (Context, bool) {
	p, err := Parse(get(Header))
	if err != nil {
		return Context{}, false
	}
	state := strings.TrimSpace(get(StateHeader))
	if len(state) > maxStateLength {
		state = ""
	}
	return Context{Parent: p, State: state}, true
}

// Fields returns the trace context as header fields (traceparent, and
// tracestate when not empty), for an outgoing request or an MCP "_meta".
func (c Context) Fields() map[string]string {
	m := map[string]string{Header: c.Parent.String()}
	if c.State != "" {
		m[StateHeader] = c.State
	}
	return m
}

type ctxKey struct{}

// NewContext returns ctx carrying tc.
func NewContext(ctx context.Context, tc Context) context.Context {
	return context.WithValue(ctx, ctxKey{}, tc)
}

// FromContext returns the trace context ctx carries, if any.
func FromContext(ctx context.Context) (Context, bool) {
	tc, ok := ctx.Value(ctxKey{}).(Context)
	return tc, ok
}

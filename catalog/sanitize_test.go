package catalog

import (
	"strings"
	"testing"
)

func TestNormalizeStripsControlCharacters(t *testing.T) {
	tests := []struct {
		name string
		in   Tool
		want Tool
	}{
		{name: "terminal escape and NUL in a description",
			in:   Tool{Name: "a", Description: "Send mail.\x1b[2J\x00 Hidden\x7f text"},
			want: Tool{Name: "a", Description: "Send mail.[2J Hidden text"}},
		{name: "newlines and tabs kept, CRLF and CR become LF",
			in:   Tool{Name: "a", Description: "Line one\r\nline two\rline\tthree\n"},
			want: Tool{Name: "a", Description: "Line one\nline two\nline\tthree"}},
		{name: "bidirectional overrides removed",
			in:   Tool{Name: "a", Description: "safe \u202Eetirw\u202C \u2066x\u2069"},
			want: Tool{Name: "a", Description: "safe etirw x"}},
		{name: "C1 control removed",
			in:   Tool{Name: "a", Description: "a\u0085b\u009bc"},
			want: Tool{Name: "a", Description: "abc"}},
		{name: "server and category lose newlines too",
			in:   Tool{Name: "a", Server: "git\nhub", Category: "dev\ttools\x1b"},
			want: Tool{Name: "a", Server: "github", Category: "devtools"}},
		{name: "clean text unchanged",
			in:   Tool{Name: "a", Description: "Ünïcödé — 发送消息 ✓"},
			want: Tool{Name: "a", Description: "Ünïcödé — 发送消息 ✓"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Normalize(tt.in)
			if got.Description != tt.want.Description || got.Server != tt.want.Server || got.Category != tt.want.Category {
				t.Errorf("Normalize = {Description %q, Server %q, Category %q}, want {%q, %q, %q}",
					got.Description, got.Server, got.Category, tt.want.Description, tt.want.Server, tt.want.Category)
			}
		})
	}
}

func TestValidateCapsServerAndCategory(t *testing.T) {
	long := strings.Repeat("x", MaxCategoryRunes+1)
	err := Validate([]Tool{{Name: "a", Category: long}, {Name: "b", Server: strings.Repeat("s", MaxServerRunes+1)}})
	if err == nil || !strings.Contains(err.Error(), "category is 129 characters long") || !strings.Contains(err.Error(), "server is 65 characters long") {
		t.Errorf("Validate = %v, want both lengths reported", err)
	}
}

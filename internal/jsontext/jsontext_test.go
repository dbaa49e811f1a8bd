package jsontext

import (
	"strings"
	"testing"
)

func TestProblem(t *testing.T) {
	deep := func(n int) string { return strings.Repeat(`{"a":[`, n) + strings.Repeat(`]}`, n) }
	tests := []struct {
		name, in, want string
	}{
		{"valid", `{"type":"object"}`, ""},
		{"brackets in strings do not count", `{"a":"[[[{{{\"]]]"}`, ""},
		{"5,001 levels of object and array", deep(5001), "nested more than 10000 levels deep"},
		{"just under the limit", deep(4999), ""},
		{"not JSON", `{"type":`, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Problem([]byte(tt.in)); !strings.HasPrefix(got, tt.want) || (tt.want == "" && got != "") {
				t.Errorf("Problem = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDuplicateKey(t *testing.T) {
	many := `{"k0":1,"k1":1,"k2":1,"k3":1,"k4":1,"k5":1,"k6":1,"k7":1,"k8":1,"k9":1`
	tests := []struct {
		name, in, want string
		dup            bool
	}{
		{"none", `{"name":"a","description":"b","inputSchema":{"type":"object"}}`, "", false},
		{"top level", `{"name":"a","name":"b"}`, "name", true},
		{"nested", `{"inputSchema":{"properties":{"x":{},"x":{}}}}`, "x", true},
		{"same key in sibling objects", `[{"a":1},{"a":2}]`, "", false},
		{"same key at two depths", `{"a":{"a":1}}`, "", false},
		{"a value equal to a key", `{"a":"a","b":"a"}`, "", false},
		{"escaped quotes in keys", `{"a\"b":1,"a\"b":2}`, `a\"b`, true},
		{"an escaped backslash before the closing quote", `{"a\\":"x\\","b":1,"a\\":2}`, `a\\`, true},
		{"past the small-object list", many + `,"k3":2}`, "k3", true},
		{"many distinct", many + `}`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, dup := DuplicateKey([]byte(tt.in))
			if got != tt.want || dup != tt.dup {
				t.Errorf("DuplicateKey = %q, %v; want %q, %v", got, dup, tt.want, tt.dup)
			}
		})
	}
}

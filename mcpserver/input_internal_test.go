package mcpserver

import (
	"errors"
	"testing"
	"time"
)

// A sealed requestState opens only for its tool and arguments (whatever
// their key order), within inputStateTTL, under the key that sealed it.
func TestSealedState(t *testing.T) {
	key, err := newStateKey()
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{stateKey: key}
	now := time.Unix(1_800_000_000, 0)
	args := map[string]any{"path": "/a", "opts": map[string]any{"force": true, "depth": 2.0}}
	sealed := s.sealState("fs__delete", args, "server-state", now)
	other, err := newStateKey()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		srv  *Server
		tool string
		args map[string]any
		at   time.Time
		want string // the server's state, or "" for a refusal
	}{
		{"same call", s, "fs__delete", map[string]any{"opts": map[string]any{"depth": 2.0, "force": true}, "path": "/a"}, now.Add(inputStateTTL), "server-state"},
		{"expired", s, "fs__delete", args, now.Add(inputStateTTL + time.Second), ""},
		{"another tool", s, "fs__wipe", args, now, ""},
		{"other arguments", s, "fs__delete", map[string]any{"path": "/"}, now, ""},
		{"another sidecar", &Server{stateKey: other}, "fs__delete", args, now, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.srv.openState(tc.tool, tc.args, sealed, tc.at)
			if tc.want == "" {
				if !errors.Is(err, errBadState) {
					t.Errorf("opened (%q, %v), want an error wrapping errBadState", got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("opened (%q, %v), want %q", got, err, tc.want)
			}
		})
	}
}

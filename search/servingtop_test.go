package search

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/catalog"
)

// TestServingTop: a tool ranked among the best that shares no word the
// request is about and whose name has none of its words is no tool of the
// request, and serves none of its steps: the kill/death-ratio calculator
// (its parameter "kills") does not serve "... and kill it", whichever rank
// it holds among the 3 best; a tool that names the request's thing does.
func TestServingTop(t *testing.T) {
	st := testState(t,
		catalog.Tool{Name: "netscan__port_scanner", Server: "netscan", Description: "Scan the open ports of a host."},
		catalog.Tool{Name: "games__kd_calculator", Server: "games", Description: "Calculates a kd (kill death ratio)", InputSchema: paramSchema(t, "number", "kills", "deaths")},
		catalog.Tool{Name: "proc__kill_process", Server: "proc", Description: "Terminate a process by its id."},
		catalog.Tool{Name: "weather__get_forecast", Server: "weather", Description: "Get the weather forecast for a city."},
	)
	id := func(name string) int {
		i, ok := st.snap.Lookup(name)
		if !ok {
			t.Fatalf("no tool %s", name)
		}
		return i
	}
	const q = "I'm trying to start my dev server but port 8080 is already in use. Can you find the process that's listening on it on my laptop and kill it?"
	p, err := st.newPlan(Request{Query: q, MaxResults: 10}, limits{maxResults: 10, maxQueryLength: 1000})
	if err != nil {
		t.Fatal(err)
	}
	shared := st.newReading(p)
	for _, c := range []struct {
		tools  []string
		top    int    // how many of the tools servingTop keeps
		unserv string // the explanation's start, "" when no rule fires
	}{
		{[]string{"netscan__port_scanner", "games__kd_calculator", "weather__get_forecast"}, 1, "none of the top 3 tools serves a step"},
		{[]string{"netscan__port_scanner", "weather__get_forecast", "games__kd_calculator"}, 1, "none of the top 3 tools serves a step"},
		{[]string{"netscan__port_scanner", "proc__kill_process", "games__kd_calculator"}, 2, ""}, // it names the process
	} {
		hs := make([]hit, len(c.tools))
		for i, name := range c.tools {
			hs[i] = hit{id: id(name), score: 0.6 - 0.01*float64(i)}
		}
		if got := st.servingTop(st.newReading(p), hs); len(got) != c.top {
			t.Errorf("%v: servingTop keeps %d tools, want %d", c.tools, len(got), c.top)
		}
		// One reading across every case: its servingTop is decided once
		// for the same best tools, and again when they change.
		if got, want := shared.servingTop(hs), st.servingTop(st.newReading(p), hs); !slices.Equal(got, want) {
			t.Errorf("%v: a reading's servingTop = %v, want %v", c.tools, got, want)
		}
		why := st.unserved(st.newReading(p), hs)
		if c.unserv == "" && why != "" || c.unserv != "" && !strings.HasPrefix(why, c.unserv) {
			t.Errorf("%v: unserved = %q, want %q", c.tools, why, c.unserv)
		}
	}
}

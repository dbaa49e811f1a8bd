package search_test

import (
	"fmt"
	"testing"

	"github.com/toolsearch/toolsearch/search"
)

// TestLearnedMarginOverWhatItPasses: github__get_issue's one learned
// query like "what's going on with golang/go#61200?" makes it the
// request's best learned match, and github__search_issues' learned
// queries, which name golang/go too, come close; but the tool
// get_issue's lift must pass, github__search_code (found by the
// catalog's words alone), has no learned claim, and search_issues
// ranks below get_issue: the margin is read over the tools the lift
// passes (marginLift), so get_issue is first. With the margin read over
// every learned candidate, search_issues' claim held the lift back and
// search_code stayed first.
func TestLearnedMarginOverWhatItPasses(t *testing.T) {
	e := exampleLearningEngine(t)
	sessions := [][]string{
		{"show me issue #45 in acme/webapp", "github__get_issue"},
		{"What does issue 4521 in golang/go say?", "github__get_issue"},
		{"what does issue #482 in octo-org/api say", "github__get_issue"},
		{"Show me facebook/react issue 4521.", "github__get_issue"},
		{"are there any open bugs about memory leaks in golang/go on GitHub?", "github__search_issues"},
		{"has anyone complained about memory leaks in prometheus/prometheus", "github__search_issues"},
		{"find open issues labeled 'good first issue' in kubernetes/kubectl", "github__search_issues"},
		{"Search kubernetes/kubernetes GitHub issues for kubelet.", "github__search_issues"},
		{"find where parseConfig is defined across our github repos", "github__search_code"},
	}
	for n, s := range sessions {
		learnSession(t, e, fmt.Sprintf("s%d", n), s[0], s[1:]...)
	}
	req := search.Request{Query: "what's going on with golang/go#61200?", MaxResults: 5, Debug: true}
	res := search1(t, e, req)
	if got := names(res); len(got) == 0 || got[0] != "github__get_issue" {
		for _, r := range res.References {
			t.Log(r.Name, r.Explanation)
		}
		t.Errorf("after learning, %q ranks %v; want github__get_issue first", req.Query, got)
	}
}

package search_test

import (
	"fmt"
	"testing"

	"github.com/toolsearch/toolsearch/search"
)

// TestLearnedLiftTheVerbRulesOut: sessions that created branches in
// ~/src/web and named release branches lift git__create_branch at
// learnStrongWeight for "switch ~/src/web over to the release-2.1
// branch" by the path's and the branch's words; the verb rule demotes it
// (git__checkout says "switch" itself), but with its lift it stayed first.
// Its lift is taken back (takeBackLifts), and git__checkout is first.
func TestLearnedLiftTheVerbRulesOut(t *testing.T) {
	e := exampleLearningEngine(t)
	sessions := [][]string{
		{"create a branch called hotfix-42", "git__create_branch"},
		{"create branch release-3.1 from main", "git__create_branch"},
		{"make a new branch called hotfix/login off main in ~/src/web", "git__create_branch"},
		{"create a branch feature/login-retry from main in /repos/web", "git__create_branch"},
		{"Create a branch called feature/export from develop in the repository at ~/code/webapp.", "git__create_branch"},
		{"hop over to the hotfix-2.3 branch in ~/work/billing", "git__checkout"},
		{"hop over to the develop branch in ~/code/shop", "git__checkout"},
	}
	for n, s := range sessions {
		learnSession(t, e, fmt.Sprintf("s%d", n), s[0], s[1:]...)
	}
	for _, q := range []string{"make a new branch release-2.0 in ~/src/web", "create branch release-2.2 in ~/src/web", "new branch release-5.0 for ~/src/web"} {
		learnFrom(t, e, q, "git__create_branch", 2)
	}
	req := search.Request{Query: "switch ~/src/web over to the release-2.1 branch", MaxResults: 5, Debug: true}
	res := search1(t, e, req)
	if got := names(res); len(got) == 0 || got[0] != "git__checkout" {
		for _, r := range res.References {
			t.Log(r.Name, r.Explanation)
		}
		t.Errorf("after learning, %q ranks %v; want git__checkout first", req.Query, got)
	}
}

// TestLearnedWriterKeepsItsLiftForAQuestionThatWrites: a question is
// answered by a tool that reads, and the question rule demotes the tools
// that write; a writer whose learned queries say the request's action
// ("… and write it to …": learnedDoes) keeps its learned lift, where
// the request asks it to write as well.
func TestLearnedWriterKeepsItsLiftForAQuestionThatWrites(t *testing.T) {
	e := exampleLearningEngine(t)
	for i, q := range []string{
		"what will the weather be in Paris tomorrow? write it to /tmp/paris.md",
		"what is the forecast for Rome this weekend, write it to ~/notes/rome.md",
		"what's the forecast in Oslo for Friday? write the summary to oslo.md",
	} {
		learnSession(t, e, fmt.Sprintf("w%d", i), q, "weather__get_forecast", "filesystem__write_file")
	}
	req := search.Request{Query: "what will the weather be in Berlin tomorrow? write it to /tmp/berlin.md", MaxResults: 5, Debug: true}
	res := search1(t, e, req)
	if !isLifted(res, "filesystem__write_file") {
		for _, r := range res.References {
			t.Log(r.Name, r.Explanation)
		}
		t.Errorf("%q: %v; want filesystem__write_file lifted by learning", req.Query, names(res))
	}
}

package toolset

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/catalog"
)

// PromptMaxGroups caps how many servers (and how many categories) the
// system prompt addition names, largest first: 40 names with counts cost
// about 300 tokens and cover most of any catalog's tools.
const PromptMaxGroups = 40

// systemPrompt is the system prompt addition for a deferred catalog: what
// the catalog holds, and how to load it. It depends on the catalog and the
// options alone (not on the session), so it is the same on every turn.
func systemPrompt(tools []catalog.Tool, deferred []catalog.Tool, mode DeferMode, searchName string, ex example, descriptions map[string]string) string {
	servers := map[string]int{}
	categories := map[string]int{}
	for _, t := range tools {
		if t.Server != "" {
			servers[t.Server]++
		}
		if t.Category != "" && t.Category != t.Server {
			categories[t.Category]++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "You can use a catalog of %d tools", len(tools))
	if len(servers) > 0 {
		fmt.Fprintf(&b, " from %d servers", len(servers))
	}
	var eg string
	switch {
	case searchName == SearchToolName && ex.words != "":
		eg = fmt.Sprintf(" (for example %q, or \"select:NAME\" when you know the name)", ex.query())
	case searchName == SearchToolName:
		eg = " (in plain words, or \"select:NAME\" when you know the name)"
	case strings.HasSuffix(searchName, string(HostedRegex)) && ex.words != "": // a provider's hosted search: its own syntax
		eg = fmt.Sprintf(" (a regular expression, for example %q)", ex.pattern())
	case ex.words != "":
		eg = fmt.Sprintf(" (for example %q)", ex.query())
	}
	fmt.Fprintf(&b, ". %d of them are not loaded yet: call %s to find and load the tools a task needs"+
		"%s; the tools it returns can be called from your next turn on.", len(deferred), searchName, eg)
	writeGroups(&b, "Servers", servers, descriptions)
	writeGroups(&b, "Categories", categories, nil)
	if mode == DeferReminder && len(deferred) > 0 {
		b.WriteString("\nTools you can load with " + searchName + ": ")
		for i, t := range deferred {
			if i == ReminderMaxNames {
				fmt.Fprintf(&b, ", and %d more (search to find them)", len(deferred)-i)
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(t.Name)
		}
		b.WriteString(".")
	}
	return b.String()
}

// writeGroups writes "\nServers (tools): a (12), b (3), … and N more."
// with the largest groups first (ties by name); a group with a description
// is written "a (12: what a does)".
func writeGroups(b *strings.Builder, label string, counts map[string]int, descriptions map[string]string) {
	if len(counts) == 0 {
		return
	}
	type group struct {
		name string
		n    int
	}
	groups := make([]group, 0, len(counts))
	for name, n := range counts {
		groups = append(groups, group{name, n})
	}
	slices.SortFunc(groups, func(a, b group) int {
		return cmp.Or(cmp.Compare(b.n, a.n), strings.Compare(a.name, b.name))
	})
	fmt.Fprintf(b, "\n%s (tools): ", label)
	for i, g := range groups {
		if i == PromptMaxGroups {
			fmt.Fprintf(b, ", and %d more", len(groups)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		if d := promptDescription(descriptions[g.name]); d != "" {
			fmt.Fprintf(b, "%s (%d: %s)", g.name, g.n, d)
		} else {
			fmt.Fprintf(b, "%s (%d)", g.name, g.n)
		}
	}
	b.WriteString(".")
}

// PromptServerDescription caps a server's description in the system
// prompt addition, in characters: its first sentence, at most 120
// characters (about 30 tokens), says what the server is for.
const PromptServerDescription = 120

// promptDescription is a server description as the prompt gives it: its
// first sentence (or line), on one line, cut to PromptServerDescription.
func promptDescription(d string) string {
	d = strings.TrimSpace(d)
	if i := strings.IndexAny(d, "\n\r"); i >= 0 {
		d = d[:i]
	}
	if i := strings.Index(d, ". "); i >= 0 {
		d = d[:i+1]
	}
	d = strings.TrimSpace(d)
	if utf8.RuneCountInString(d) > PromptServerDescription {
		d = truncate(d, PromptServerDescription)
	}
	return d
}

// appendPrompt appends an operator's text to the prompt addition, after a
// blank line.
func appendPrompt(prompt, operator string) string {
	operator = strings.TrimSpace(operator)
	switch {
	case operator == "":
		return prompt
	case prompt == "":
		return operator
	}
	return prompt + "\n\n" + operator
}

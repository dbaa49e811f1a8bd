package search

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strings"
)

// browse answers an empty query: the tools in scope in name order, a page
// of the plan's limit at a time.
func (st *state) browse(p *plan) (Result, error) {
	ids, total, next, err := st.page(p.pageToken, p.limit, p.allow)
	if err != nil {
		return Result{}, err
	}
	res := Result{
		TotalMatches:  total,
		NextPageToken: next,
		References:    make([]Reference, len(ids)),
		Metadata: Metadata{
			SearchType:          ModeBrowse,
			RequestedSearchType: p.requested,
			Query:               p.raw,
			CatalogVersion:      st.snap.Version(),
		},
	}
	for i, id := range ids {
		t := st.snap.Tool(id)
		res.References[i] = Reference{Name: t.Name, Summary: t.Summary(), Server: t.Server}
	}
	return res, nil
}

// page returns one page of the tools that allow admits (nil: all) in name
// order: up to limit tool indexes after the token's tool, the number of
// tools admitted in all, and the token of the next page ("" on the last).
// The page token names the last tool of the previous page, so paging stays
// correct while the catalog changes between pages.
func (st *state) page(token string, limit int, allow func(int) bool) (ids []int, total int, next string, err error) {
	start, err := st.pageStart(token)
	if err != nil {
		return nil, 0, "", err
	}
	tools := st.snap.Tools()
	for i := range tools {
		if allow == nil || allow(i) {
			total++
		}
	}
	for i := start; i < len(tools); i++ {
		if allow != nil && !allow(i) {
			continue
		}
		if len(ids) == limit {
			next = pageToken(tools[ids[limit-1]].Name)
			break
		}
		ids = append(ids, i)
	}
	return ids, total, next, nil
}

// pageToken encodes the name a page ended on.
func pageToken(last string) string {
	return base64.RawURLEncoding.EncodeToString([]byte("after:" + last))
}

// pageStart decodes a page token into the index of the first tool of the
// page: the first tool whose name sorts after the token's name.
func (st *state) pageStart(token string) (int, error) {
	if token == "" {
		return 0, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(token)
	last, ok := strings.CutPrefix(string(raw), "after:")
	if err != nil || !ok {
		return 0, invalid(fmt.Errorf("page token %q is not one this sidecar issued; start again with an empty token", truncate(token, 40)))
	}
	tools := st.snap.Tools()
	return sort.Search(len(tools), func(i int) bool { return tools[i].Name > last }), nil
}

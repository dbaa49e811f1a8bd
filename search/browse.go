package search

import (
	"encoding/base64"
	"fmt"
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
// order: up to limit tool IDs after the token's tool, the number of
// tools admitted in all, and the token of the next page ("" on the last).
// The page token names the last tool of the previous page, so paging stays
// correct while the catalog changes between pages.
func (st *state) page(token string, limit int, allow func(int) bool) (ids []int, total int, next string, err error) {
	start, err := st.pageStart(token)
	if err != nil {
		return nil, 0, "", err
	}
	n := st.snap.Len()
	total = n
	if allow != nil {
		total = 0
		for id := range n {
			if allow(id) {
				total++
			}
		}
	}
	for k := start; k < n; k++ {
		id := st.snap.NameOrder(k)
		if allow != nil && !allow(id) {
			continue
		}
		if len(ids) == limit {
			next = pageToken(st.snap.Tool(ids[limit-1]).Name)
			break
		}
		ids = append(ids, id)
	}
	return ids, total, next, nil
}

// pageToken encodes the name a page ended on.
func pageToken(last string) string {
	return base64.RawURLEncoding.EncodeToString([]byte("after:" + last))
}

// pageStart decodes a page token into the position in name order of the
// first tool of the page: the first tool whose name sorts after the token's
// name.
func (st *state) pageStart(token string) (int, error) {
	if token == "" {
		return 0, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(token)
	last, ok := strings.CutPrefix(string(raw), "after:")
	if err != nil || !ok {
		return 0, invalid(fmt.Errorf("page token %q is not one this sidecar issued; start again with an empty token", truncate(token, 40)))
	}
	k := st.snap.SearchName(last)
	if k < st.snap.Len() && st.snap.Tool(st.snap.NameOrder(k)).Name == last {
		k++
	}
	return k, nil
}

package search

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strings"
)

// browse lists tools in name order for an empty query, limit per page. The
// page token names the last tool of the previous page, so paging stays
// correct while the catalog changes between pages.
func (st *state) browse(res *Result, token string, limit int, allow func(int) bool) error {
	start, err := st.pageStart(token)
	if err != nil {
		return err
	}
	res.Metadata.SearchType = ModeBrowse
	tools := st.snap.Tools()
	total := 0
	for i := range tools {
		if allow == nil || allow(i) {
			total++
		}
	}
	res.TotalMatches = total
	for i := start; i < len(tools); i++ {
		if allow != nil && !allow(i) {
			continue
		}
		if len(res.References) == limit {
			res.NextPageToken = pageToken(res.References[limit-1].Name)
			break
		}
		t := tools[i]
		res.References = append(res.References, Reference{Name: t.Name, Summary: t.Summary(), Server: t.Server})
	}
	return nil
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

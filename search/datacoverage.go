package search

import (
	"slices"

	"github.com/toolsearch/toolsearch/fallback"
)

// The columns and values of a request on a named table: "Bump the price
// of SKU 1142 to 19.99 in the products table" asks the tool that runs
// SQL to update rows (fallback.DataFrame, read by requestRead and the
// unserved action); "price", "sku" and "products" name a column, a key
// and the table, which are the database's, never the catalog's words, as
// an argument value is. Coverage counted them as words the catalog does
// not know, and the right first tool (postgres__execute) stayed under the
// confident line. When the request names a table as the place of its
// data (fallback.InTable) and the top tool runs its statement (doesData),
// every unknown word keeps servedArgumentWeight of its weight, as an
// unknown argument of an object the top tool serves does
// (argumentCoverage). Rows of other software keep their coverage ("update
// the pivot table in the quarterly workbook" names no table at its end).

// dataCoverage returns m's coverage for calibration with the unknown
// words of a request on a named table discounted (see above), or
// m.coverage; hs are m's hits as the answer orders them, best first, r
// the request, and when whether the unknown words of a time are left
// out (ownActionCoverage).
func (st *state) dataCoverage(r *reading, m matches, hs []hit, when bool) float64 {
	if len(hs) == 0 || len(m.tally.Unknown) == 0 || (m.mode != ModeKeyword && m.mode != ModeHybrid && m.mode != ModeSemantic) || !fallback.InTable(r.req.Raw) {
		return m.coverage
	}
	ws := r.words()
	i := slices.IndexFunc(ws, func(w string) bool { return !fallback.PreambleWord(w) })
	if i < 0 {
		return m.coverage
	}
	if data := fallback.DataFrame(ws[i:]); data == "" || !st.doesData(hs[0].id, data) {
		return m.coverage
	}
	c, ok := m.tally.Discounted(when, servedArgumentWeight, func(fallback.UnknownWord) bool { return true })
	if !ok {
		return m.coverage
	}
	return max(m.coverage, c)
}

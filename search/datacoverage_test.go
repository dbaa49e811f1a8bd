package search_test

import "testing"

// TestDataCoverage: the columns, keys and table names of a request on a
// named table are the database's words, not the catalog's (dataCoverage):
// the tool running the statement is first and confident.
func TestDataCoverage(t *testing.T) {
	topAndFlag(t, []topCase{
		{"bump the price of SKU 88 to 9.99 in the products table", "postgres__execute", false},
	})
}

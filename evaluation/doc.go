// Package evaluation holds the retrieval metrics of toolsearch, defined
// once: labelled queries in the ../shared/bench queries.jsonl format, and
// recall@k, nDCG@10 and MRR over a query's steps.
//
// A query has steps: its groups when present (any tool of a group satisfies
// that step), otherwise one step per relevant tool. A returned tool earns
// gain 1 when it satisfies a step that no higher-ranked tool already
// satisfied. recall@k is the gain in the top k divided by the number of
// steps; nDCG@10 uses those binary gains with an ideal of min(steps, 10)
// gains at the top; MRR is 1 / rank of the first gain. All are averaged over
// queries.
package evaluation

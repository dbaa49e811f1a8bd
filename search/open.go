package search

import "github.com/toolsearch/toolsearch/catalog"

// NewFromTools validates tools as one catalog and builds an engine over
// them, as New does over a snapshot.
func NewFromTools(tools []Tool, cfg Config) (*Engine, error) {
	snap, err := catalog.NewSnapshot(tools)
	if err != nil {
		return nil, err
	}
	return New(snap, cfg)
}

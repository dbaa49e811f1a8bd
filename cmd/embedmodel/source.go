package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// source is the wink-embeddings JSON: words in frequency order and, for each
// word, its dims components followed by its L2 norm and its index.
type source struct {
	Dimensions int                  `json:"dimensions"`
	Words      []string             `json:"words"`
	Vectors    map[string][]float64 `json:"vectors"`
}

func (s *source) size() int { return len(s.Words) }

// readSource decodes the JSON from r, which holds either the JSON itself or
// the npm tarball (gzip-compressed tar) with the JSON at package/*.json.
func readSource(r io.Reader) (*source, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	head, err := br.Peek(2)
	if err != nil {
		return nil, fmt.Errorf("empty input: %w", err)
	}
	var in io.Reader = br
	if bytes.Equal(head, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		if in, err = findJSON(tar.NewReader(zr)); err != nil {
			return nil, err
		}
	}
	var s source
	if err := json.NewDecoder(in).Decode(&s); err != nil {
		return nil, fmt.Errorf("decode JSON: %w", err)
	}
	if s.Dimensions <= 0 || len(s.Words) == 0 {
		return nil, errors.New("no dimensions or no words: is this wink-embeddings JSON?")
	}
	return &s, nil
}

// findJSON advances tr to the package's vector file: the JSON file other
// than package.json.
func findJSON(tr *tar.Reader) (io.Reader, error) {
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil, errors.New("no vectors JSON in the tarball")
		}
		if err != nil {
			return nil, err
		}
		name := h.Name[strings.LastIndex(h.Name, "/")+1:]
		if h.Typeflag == tar.TypeReg && strings.HasSuffix(name, ".json") && name != "package.json" {
			return tr, nil
		}
	}
}

package server

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/fnv"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// MaxGetToolsPageSize is the largest page_size of GetTools, as for
// ListTools.
const MaxGetToolsPageSize = 500

// getToolsOverhead is room kept in a GetTools page for the fields besides
// the tools (catalog_version and next_page_token take under 60 bytes).
const getToolsOverhead = 128

// GetTools returns full definitions by exact name, in request order, each
// name once. With page_size 0 it answers every name at once, or
// RESOURCE_EXHAUSTED naming the page_size that fits the message limit; with
// a page_size it answers at most that many, fewer when their definitions
// would exceed the limit, and a next_page_token for the rest.
func (s *Service) GetTools(ctx context.Context, in *toolsearchv1.GetToolsRequest) (*toolsearchv1.GetToolsResponse, error) {
	e, err := s.ready()
	if err != nil {
		return nil, err
	}
	names := unique(in.GetNames())
	size := int(in.GetPageSize())
	if size < 0 || size > MaxGetToolsPageSize {
		return nil, status.Errorf(codes.InvalidArgument, "page_size %d: use 0 (every tool in one answer) or 1 to %d", size, MaxGetToolsPageSize)
	}
	offset := 0
	if tok := in.GetPageToken(); tok != "" {
		if offset, err = parseGetToolsToken(tok, names, size); err != nil {
			return nil, err
		}
	}
	end := len(names)
	if size > 0 {
		end = min(offset+size, len(names))
	}
	tools, version, err := e.Get(names[offset:end])
	if err != nil {
		return nil, toStatus(ctx, s.log, "GetTools", err)
	}
	msgs := make([]*toolsearchv1.Tool, len(tools))
	for i, t := range tools {
		msgs[i] = toolMessage(t)
	}

	// As many tools as fit in the message limit.
	budget := s.maxMessageSize - getToolsOverhead
	fit, used := 0, 0
	for fit < len(msgs) {
		n := proto.Size(msgs[fit])
		n += protowire.SizeTag(1) + protowire.SizeVarint(uint64(n))
		if used+n > budget {
			break
		}
		used += n
		fit++
	}
	if fit < len(msgs) {
		switch {
		case fit == 0:
			n := proto.Size(msgs[0])
			return nil, status.Errorf(codes.ResourceExhausted,
				"tool %q alone is %d bytes, over the sidecar's message limit of %d bytes (--max-message-size); raise --max-message-size (and the client's receive limit) above %d to get it",
				msgs[0].GetName(), n, s.maxMessageSize, n+getToolsOverhead)
		case size == 0:
			total := used
			for _, m := range msgs[fit:] {
				n := proto.Size(m)
				total += protowire.SizeTag(1) + protowire.SizeVarint(uint64(n)) + n
			}
			return nil, status.Errorf(codes.ResourceExhausted,
				"the %d tools asked for are %d bytes, over the sidecar's message limit of %d bytes (--max-message-size); set page_size to %d and follow next_page_token, ask for fewer names, or raise --max-message-size (and the client's receive limit)",
				len(msgs), total, s.maxMessageSize, fit)
		}
		msgs = msgs[:fit]
	}
	out := &toolsearchv1.GetToolsResponse{CatalogVersion: version, Tools: msgs}
	if next := offset + len(msgs); next < len(names) {
		out.NextPageToken = getToolsToken(next, names, size)
	}
	return out, nil
}

// unique returns names without repeats, in first-occurrence order.
func unique(names []string) []string {
	seen := make(map[string]bool, len(names))
	out := names[:0:0]
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// requestHash ties a page token to the names and page size it was issued
// for.
func requestHash(names []string, size int) uint64 {
	h := fnv.New64a()
	for _, n := range names {
		h.Write([]byte(n))
		h.Write([]byte{0})
	}
	binary.Write(h, binary.LittleEndian, int64(size))
	return h.Sum64()
}

// getToolsToken encodes the offset of the next page and the request's hash.
func getToolsToken(offset int, names []string, size int) string {
	b := binary.LittleEndian.AppendUint32(nil, uint32(offset))
	b = binary.LittleEndian.AppendUint64(b, requestHash(names, size))
	return base64.RawURLEncoding.EncodeToString(b)
}

// parseGetToolsToken returns the offset a token continues at, or
// INVALID_ARGUMENT when it is malformed or was issued for another request.
func parseGetToolsToken(tok string, names []string, size int) (int, error) {
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil || len(b) != 12 {
		return 0, status.Error(codes.InvalidArgument, "page_token is not one GetTools returned; send the next_page_token of the previous answer, or none for the first page")
	}
	offset := int(binary.LittleEndian.Uint32(b))
	if binary.LittleEndian.Uint64(b[4:]) != requestHash(names, size) || offset <= 0 || offset >= len(names) {
		return 0, status.Error(codes.InvalidArgument, fmt.Sprintf(
			"page_token was issued for other names or another page_size; send the same names and page_size (%d) as for the first page, or no page_token to start over", size))
	}
	return offset, nil
}

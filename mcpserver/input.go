package mcpserver

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Input requests (MCP 2026-07-28 multi round trip, SEP-2322): a live
// server's tools/call may answer "input_required" with inputRequests
// (elicitation, sampling, roots) and a requestState, and expect the same
// call again with inputResponses and that requestState. The endpoint passes
// them through:
//
//   - a 2026-07-28 client (stateless mode, call_tool or an always-loaded
//     tool) gets the input_required result, with the server's requestState
//     wrapped in a sealed state (sealState) bound to the catalog tool and
//     its arguments; its retry is opened (openState) and forwarded with the
//     client's inputResponses and the server's own requestState;
//   - a session-mode client (2025-11-25 and older, which knows no
//     input_required) is asked itself, the way the go-sdk's server does for
//     its own handlers: elicitation/create, sampling/createMessage,
//     roots/list over its session (fulfilInput), and the call is retried
//     with the answers, up to maxInputRounds times.

// inputStateTTL is how long a sealed requestState stays valid: an
// elicitation may wait for a person to answer, so minutes, not seconds;
// a state older than this is refused and the model calls the tool again.
const inputStateTTL = 15 * time.Minute

// maxInputRounds bounds the input rounds of one session-mode call (the
// go-sdk client's own bound on automatic retries is 10 as well): a server
// that keeps asking ends with a tool error instead of looping.
const maxInputRounds = 10

// sealedStatePrefix starts every requestState the endpoint mints
// ("ts1." + base64url(payload) + "." + base64url(HMAC-SHA256)).
const sealedStatePrefix = "ts1."

// errBadState is what opening a requestState the endpoint did not seal
// for this call wraps.
var errBadState = errors.New("requestState not issued for this call")

// sealedState is the payload of a sealed requestState.
type sealedState struct {
	Tool    string `json:"t"` // the catalog tool
	Args    string `json:"a"` // hex SHA-256 of the canonical arguments
	State   string `json:"s"` // the live server's requestState
	Expires int64  `json:"e"` // Unix seconds
}

// newStateKey makes the HMAC key of sealed states (Server.stateKey):
// random per process, so a state neither outlives the sidecar nor crosses
// to another instance.
func newStateKey() ([]byte, error) {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("mcpserver: a requestState key: %w", err)
	}
	return k, nil
}

// argsDigest is the hex SHA-256 of args as canonical JSON (encoding/json
// sorts map keys), so a retry whose client re-encoded the same arguments
// matches.
func argsDigest(args map[string]any) string {
	b, _ := json.Marshal(args) // decoded from JSON: always encodable
	d := sha256.Sum256(b)
	return hex.EncodeToString(d[:])
}

// sealState wraps a live server's requestState for the client: signed,
// bound to the catalog tool and its arguments, valid for inputStateTTL.
func (s *Server) sealState(tool string, args map[string]any, state string, now time.Time) string {
	payload, _ := json.Marshal(sealedState{Tool: tool, Args: argsDigest(args), State: state, Expires: now.Add(inputStateTTL).Unix()})
	p := base64.RawURLEncoding.EncodeToString(payload)
	return sealedStatePrefix + p + "." + base64.RawURLEncoding.EncodeToString(s.stateMAC(p))
}

// stateMAC is the HMAC-SHA256 of a sealed state's encoded payload.
func (s *Server) stateMAC(payload string) []byte {
	m := hmac.New(sha256.New, s.stateKey)
	m.Write([]byte(payload))
	return m.Sum(nil)
}

// openState checks a sealed requestState against the call that echoes it
// and returns the live server's requestState. Errors wrap errBadState and
// say why (forged or from another sidecar, another tool or arguments,
// expired).
func (s *Server) openState(tool string, args map[string]any, sealed string, now time.Time) (string, error) {
	rest, ok := strings.CutPrefix(sealed, sealedStatePrefix)
	p, mac, ok2 := strings.Cut(rest, ".")
	sig, err := base64.RawURLEncoding.DecodeString(mac)
	if !ok || !ok2 || err != nil || !hmac.Equal(sig, s.stateMAC(p)) {
		return "", fmt.Errorf("%w: it was not minted by this sidecar (forged, altered, or from a restarted or other instance)", errBadState)
	}
	raw, err := base64.RawURLEncoding.DecodeString(p)
	var st sealedState
	if err == nil {
		err = json.Unmarshal(raw, &st)
	}
	switch {
	case err != nil:
		return "", fmt.Errorf("%w: %v", errBadState, err)
	case st.Tool != tool:
		return "", fmt.Errorf("%w: it belongs to a call of another tool", errBadState)
	case st.Args != argsDigest(args):
		return "", fmt.Errorf("%w: it belongs to a call with other arguments", errBadState)
	case now.Unix() > st.Expires:
		return "", fmt.Errorf("%w: it expired (valid for %v)", errBadState, inputStateTTL)
	}
	return st.State, nil
}

// clientTakesInput reports whether the client of req handles input_required
// results itself (MCP 2026-07-28 and newer).
func clientTakesInput(req *mcp.CallToolRequest) bool {
	return isStatelessRequest(req)
}

// asInputRequired is res, an input_required result of the live server,
// as the client gets it: the same input requests, the requestState sealed
// for a retry of tool with args.
func (s *Server) asInputRequired(res *mcp.CallToolResult, tool string, args map[string]any) *mcp.CallToolResult {
	out := *res // keeps the result type, which only the SDK sets
	out.RequestState = s.sealState(tool, args, res.RequestState, time.Now())
	return &out
}

// clientCapabilities is the JSON object of the capabilities of req's
// client (a 2026-07-28 request's own, else its session's), which the
// forwarded call declares in its stead, so that a live server asks only
// for input this client can give; nil when unknown.
func clientCapabilities(req *mcp.CallToolRequest) json.RawMessage {
	caps := req.ClientCapabilities()
	if caps == nil {
		return nil
	}
	b, err := json.Marshal(caps)
	var m map[string]any
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil {
		return nil
	}
	//lint:ignore SA1019 roots stay in the protocol during their deprecation window
	if caps.RootsV2 == nil {
		// ClientCapabilities.Roots is a struct, always encoded: only
		// RootsV2 says whether the client declared roots.
		delete(m, "roots")
	}
	b, err = json.Marshal(m)
	if err != nil {
		return nil
	}
	return b
}

// fulfilInput asks the session-mode client of ss what the live server's
// input requests ask (in parallel, as the go-sdk does), and returns the
// answers by request id.
func fulfilInput(ctx context.Context, ss *mcp.ServerSession, reqs mcp.InputRequestMap) (mcp.InputResponseMap, error) {
	type answer struct {
		id  string
		res mcp.InputResponse
		err error
	}
	ch := make(chan answer, len(reqs))
	for id, ir := range reqs {
		go func() {
			res, err := fulfilOne(ctx, ss, ir)
			ch <- answer{id, res, err}
		}()
	}
	out := make(mcp.InputResponseMap, len(reqs))
	var errs []error
	for range reqs {
		a := <-ch
		if a.err != nil {
			errs = append(errs, fmt.Errorf("input request %q: %w", a.id, a.err))
			continue
		}
		out[a.id] = a.res
	}
	return out, errors.Join(errs...)
}

// fulfilOne asks the client one input request. Sampling and roots are
// deprecated as of 2026-07-28 (SEP-2577) but still in the protocol, and a
// live server may still ask for them. A sampling request decoded from the
// wire is always *mcp.CreateMessageWithToolsParams.
func fulfilOne(ctx context.Context, ss *mcp.ServerSession, ir mcp.InputRequest) (mcp.InputResponse, error) {
	switch p := ir.(type) {
	case *mcp.ElicitParams:
		return ss.Elicit(ctx, p)
	//lint:ignore SA1019 sampling stays in the protocol during its deprecation window
	case *mcp.CreateMessageWithToolsParams:
		//lint:ignore SA1019 as above
		return ss.CreateMessageWithTools(ctx, p)
	//lint:ignore SA1019 roots stay in the protocol during their deprecation window
	case *mcp.ListRootsParams:
		//lint:ignore SA1019 as above
		return ss.ListRoots(ctx, p)
	}
	return nil, fmt.Errorf("unknown input request %T", ir)
}

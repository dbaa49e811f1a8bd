package conformance

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	toolsearch "github.com/toolsearch/toolsearch/clients/go"
	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"github.com/toolsearch/toolsearch/internal/testenv"
)

// script is script.json.
type script struct {
	Loops []struct {
		Name              string   `json:"name"`
		Session           string   `json:"session"`
		Format            string   `json:"format"`
		SearchMode        string   `json:"search_mode"`
		AlwaysLoaded      []string `json:"always_loaded"`
		VisibleTools      []string `json:"visible_tools"`
		DeferralThreshold int      `json:"deferral_threshold"`
		Turns             []struct {
			ToolSearch string `json:"tool_search"`
			CallTool   string `json:"call_tool"`
		} `json:"turns"`
	} `json:"loops"`
}

// The transcript every driver prints: per loop, per turn, the tool list the
// turn sent and the answer to the model's move.
type (
	transcript struct {
		Loops []loopTranscript `json:"loops"`
	}
	loopTranscript struct {
		Name  string           `json:"name"`
		Turns []turnTranscript `json:"turns"`
	}
	turnTranscript struct {
		Toolset toolsetTranscript `json:"toolset"`
		Result  any               `json:"result"`
	}
	toolsetTranscript struct {
		Loaded      []string `json:"loaded"`
		Deferred    int      `json:"deferred"`
		SearchMode  int      `json:"search_mode"`
		ToolsSHA256 string   `json:"tools_sha256"`
	}
)

func readScript(t *testing.T) script {
	t.Helper()
	b, err := os.ReadFile("script.json")
	if err != nil {
		t.Fatal(err)
	}
	var s script
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("script.json: %v", err)
	}
	return s
}

// runGo plays the script with the Go Agent; sessions are prefix-<session>.
func runGo(ctx context.Context, t *testing.T, addr string, s script, prefix string) transcript {
	t.Helper()
	c, err := toolsearch.Dial(addr, toolsearch.WithTimeout(testenv.HangGuard(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var out transcript
	for _, l := range s.Loops {
		a := toolsearch.NewAgent(c,
			toolsearch.WithAlwaysLoaded(l.AlwaysLoaded...),
			toolsearch.WithDeferralThreshold(l.DeferralThreshold),
			toolsearch.WithAgentSearchOptions(toolsearch.WithVisibleTools(l.VisibleTools...)),
			toolsearch.WithSearchMode(toolsearchv1.ToolSearchMode(toolsearchv1.ToolSearchMode_value[l.SearchMode])))
		format := toolsearchv1.ToolFormat(toolsearchv1.ToolFormat_value[l.Format])
		session := prefix + "-" + l.Session
		if err := a.Reset(ctx, session); err != nil {
			t.Fatal(err)
		}
		lt := loopTranscript{Name: l.Name, Turns: []turnTranscript{}}
		for i, turn := range l.Turns {
			ts, err := a.Tools(ctx, session, format)
			if err != nil {
				t.Fatalf("%s turn %d: Tools: %v", l.Name, i+1, err)
			}
			sum := sha256.Sum256(ts.Tools)
			tt := turnTranscript{Toolset: toolsetTranscript{
				Loaded: append([]string{}, ts.Loaded...), Deferred: ts.Deferred, SearchMode: int(ts.SearchMode), ToolsSHA256: hex.EncodeToString(sum[:]),
			}}
			switch {
			case turn.CallTool != "":
				name := ts.CatalogName(turn.CallTool)
				if err := a.ToolCalled(ctx, session, name, nil); err != nil {
					t.Fatalf("%s turn %d: ToolCalled: %v", l.Name, i+1, err)
				}
				tt.Result = map[string]any{"reported": name}
			case l.SearchMode == "TOOL_SEARCH_MODE_NATIVE_CLIENT" && format == toolsearch.FormatAnthropic:
				raw, err := a.AnthropicToolResult(ctx, session, "toolu_"+string(rune('0'+i+1)), json.RawMessage(turn.ToolSearch))
				if err != nil {
					t.Fatalf("%s turn %d: AnthropicToolResult: %v", l.Name, i+1, err)
				}
				tt.Result = decode(t, raw)
			case l.SearchMode == "TOOL_SEARCH_MODE_NATIVE_CLIENT" && format == toolsearch.FormatOpenAIResponses:
				item, _ := json.Marshal(map[string]string{"type": "tool_search_call", "call_id": "call_" + string(rune('0'+i+1)), "arguments": turn.ToolSearch})
				raw, err := a.OpenAIToolSearchOutput(ctx, session, item)
				if err != nil {
					t.Fatalf("%s turn %d: OpenAIToolSearchOutput: %v", l.Name, i+1, err)
				}
				tt.Result = decode(t, raw)
			default:
				res, err := a.HandleToolCall(ctx, session, turn.ToolSearch)
				if err != nil {
					t.Fatalf("%s turn %d: HandleToolCall: %v", l.Name, i+1, err)
				}
				tt.Result = res
			}
			lt.Turns = append(lt.Turns, tt)
		}
		out.Loops = append(out.Loops, lt)
	}
	return normalize(t, out)
}

func decode(t *testing.T, raw []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("answer is not JSON: %v: %s", err, raw)
	}
	return v
}

// timing matches the one value of a result that varies from run to run.
var timing = regexp.MustCompile(`"execution_time_ms":[0-9]+`)

// normalize zeroes the timings and round-trips t through JSON, so that
// transcripts compare as JSON values.
func normalize(t *testing.T, tr transcript) transcript {
	t.Helper()
	for i := range tr.Loops {
		for j := range tr.Loops[i].Turns {
			if s, ok := tr.Loops[i].Turns[j].Result.(string); ok {
				tr.Loops[i].Turns[j].Result = timing.ReplaceAllString(s, `"execution_time_ms":0`)
			}
		}
	}
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	var out transcript
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// startSidecar builds and starts the real sidecar on the example catalog,
// SERVING only once the semantic index is built (so every client sees the
// same ranking), and returns its address.
func startSidecar(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sidecar")
	build := exec.Command("go", "build", "-o", bin, "../../cmd/sidecar")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/sidecar: %v\n%s", err, out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--catalog", "../../examples/catalog.json", "--listen", "127.0.0.1:0",
		"--metrics-listen", "", "--ready-when", "semantic", "--log-format", "json", "--stop-with-parent")
	cmd.Env = append(os.Environ(), "TOOLSEARCH_LEARN=false")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	var logs bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logs.Write(append(sc.Bytes(), '\n'))
			var line struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "serving" {
				addr <- line.Addr
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		<-done
	})
	select {
	case a := <-addr:
		return a
	case <-done:
		t.Fatalf("the sidecar exited before serving:\n%s", logs.String())
	}
	return ""
}

// external runs a driver that prints its transcript as JSON on stdout.
func external(t *testing.T, cmd *exec.Cmd) transcript {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", cmd.String(), err, stderr.String())
	}
	var tr transcript
	if err := json.Unmarshal(out, &tr); err != nil {
		t.Fatalf("%s printed no transcript (%v):\n%s\n%s", cmd.String(), err, out, stderr.String())
	}
	return normalize(t, tr)
}

// need skips the test when a driver cannot run here, or fails it under
// CI=true, where every driver must run.
func need(t *testing.T, what string, ok bool) bool {
	t.Helper()
	if ok {
		return true
	}
	testenv.SkipOrFail(t, "%s is missing; `make test` installs it", what)
	return false
}

func TestHelpersAgree(t *testing.T) {
	s := readScript(t)
	addr := startSidecar(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	want := runGo(ctx, t, addr, s, "go")
	checkGo(t, want)

	t.Run("typescript", func(t *testing.T) {
		driver := "../typescript/dist/conformance/run.js"
		_, err := os.Stat(driver)
		need(t, "the built TypeScript client (make typescript-client)", err == nil)
		got := external(t, exec.CommandContext(ctx, "node", driver, addr, "script.json", "ts"))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("the TypeScript helper differs from the Go helper (-go +ts):\n%s", diff)
		}
	})
	t.Run("typescript examples", func(t *testing.T) {
		driver := "../typescript/dist/conformance/examples.js"
		_, err := os.Stat(driver)
		need(t, "the built TypeScript client (make typescript-client)", err == nil)
		// The examples' loops through the pinned Anthropic and OpenAI SDKs,
		// against a loopback stub of each provider's API.
		if out, err := exec.CommandContext(ctx, "node", driver, addr).CombinedOutput(); err != nil || !bytes.Contains(out, []byte("examples: done")) {
			t.Errorf("%s: %v\n%s", driver, err, out)
		}
	})
	t.Run("python", func(t *testing.T) {
		check := exec.Command(python, "-c", "import grpc, google.protobuf")
		need(t, "Debian's python3-grpcio and python3-protobuf (make python-deps)", check.Run() == nil)
		cmd := exec.CommandContext(ctx, python, "../python/conformance.py", addr, "script.json", "py")
		cmd.Env = append(os.Environ(), "PYTHONPATH=../python/src")
		got := external(t, cmd)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("the Python helper differs from the Go helper (-go +py):\n%s", diff)
		}
	})
	t.Run("python examples", func(t *testing.T) {
		check := exec.Command(python, "-c", "import grpc, google.protobuf")
		need(t, "Debian's python3-grpcio and python3-protobuf (make python-deps)", check.Run() == nil)
		for _, ex := range []string{"anthropic_loop.py", "openai_loop.py"} {
			for _, native := range []bool{false, true} {
				args := []string{filepath.Join("../python/examples", ex), addr}
				if native {
					args = append(args, "--native")
				}
				cmd := exec.CommandContext(ctx, python, args...)
				cmd.Env = append(os.Environ(), "PYTHONPATH=../python/src")
				if out, err := cmd.CombinedOutput(); err != nil || string(bytes.TrimSpace(out)) != "done" {
					t.Errorf("%s native=%v: %v\n%s", ex, native, err, out)
				}
			}
		}
	})
}

// python is Debian's interpreter, where python3-grpcio installs.
const python = "/usr/bin/python3"

// checkGo checks the reference transcript itself: what the loops must show
// whatever the helper.
func checkGo(t *testing.T, tr transcript) {
	t.Helper()
	byName := map[string]loopTranscript{}
	for _, l := range tr.Loops {
		byName[l.Name] = l
		if len(l.Turns) != 3 {
			t.Errorf("%s: %d turns, want 3", l.Name, len(l.Turns))
		}
	}
	p := byName["portable"]
	if len(p.Turns) == 3 {
		if !slices.Contains(p.Turns[1].Toolset.Loaded, "slack__send_message") || slices.Contains(p.Turns[0].Toolset.Loaded, "slack__send_message") {
			t.Errorf("portable: slack__send_message loaded %v then %v; want it revealed by the first search", p.Turns[0].Toolset.Loaded, p.Turns[1].Toolset.Loaded)
		}
		if r, _ := p.Turns[2].Result.(string); !regexp.MustCompile(`^\{"error":"invalid pattern`).MatchString(r) {
			t.Errorf("portable turn 3: %v, want the bad regex as an error result for the model", p.Turns[2].Result)
		}
	}
}

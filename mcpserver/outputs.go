package mcpserver

import (
	"container/list"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"
)

// Large results kept out of the model's context: a forwarded tool result
// whose text is over Config.InlineOutput characters is kept by the
// endpoint and answered with a preview and an output handle; the
// read_output tool reads it back by character range, by text search or by
// a jq query (readoutput.go).

// DefaultInlineOutput is the largest forwarded result passed on whole, in
// bytes of text (its text contents and structuredContent together): 16 KiB
// is about 4k tokens, as much of one tool answer as a model's turn should
// carry; larger ones are kept and previewed.
const DefaultInlineOutput = 16 << 10

// OutputPreview is how much of a kept result its answer shows, in
// characters.
const OutputPreview = 2000

// Bounds of the kept results, for every session and request together: at
// most OutputStoreBytes of text (the oldest dropped past it), each kept at
// most OutputTTL after its call, and none over MaxKeptOutput (such a result
// is a tool error that says to ask for less).
const (
	OutputStoreBytes = 64 << 20
	OutputTTL        = 30 * time.Minute
	MaxKeptOutput    = 16 << 20
)

// outputPrefix starts every output handle: "out-" and 32 hex digits,
// unguessable (a handle is the right to read the result).
const outputPrefix = "out-"

// keptOutput is one kept result: its text, and its JSON value when the
// result was structured or its text is JSON (nil otherwise).
type keptOutput struct {
	handle string
	tool   string
	text   string
	value  any
	at     time.Time
	// size is what it counts against OutputStoreBytes: its text, and its
	// JSON form once more when it has a value.
	size int
}

// outputStore holds kept results, oldest first, within OutputStoreBytes
// and OutputTTL. Safe for concurrent use.
type outputStore struct {
	now func() time.Time

	mu     sync.Mutex
	byID   map[string]*list.Element
	order  *list.List // of *keptOutput, oldest at the front
	bytes  int
	budget int
}

func newOutputStore() *outputStore {
	return &outputStore{now: time.Now, byID: map[string]*list.Element{}, order: list.New(), budget: OutputStoreBytes}
}

// keep stores a result and returns its handle.
func (st *outputStore) keep(tool, text string, structured json.RawMessage) (*keptOutput, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	o := &keptOutput{handle: outputPrefix + hex.EncodeToString(b[:]), tool: tool, text: text, at: st.now()}
	var v any
	switch {
	case len(structured) > 0 && json.Unmarshal(structured, &v) == nil:
		o.value = v
	case json.Unmarshal([]byte(text), &v) == nil:
		o.value = v
	}
	size := len(text)
	if o.value != nil {
		size += max(len(structured), len(text))
	}
	o.size = size
	st.mu.Lock()
	defer st.mu.Unlock()
	st.expire()
	for st.bytes+size > st.budget && st.order.Len() > 0 {
		st.drop(st.order.Front())
	}
	st.byID[o.handle] = st.order.PushBack(o)
	st.bytes += size
	return o, nil
}

// get returns the kept result of handle, if it is still kept.
func (st *outputStore) get(handle string) (*keptOutput, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.expire()
	el, ok := st.byID[handle]
	if !ok {
		return nil, false
	}
	return el.Value.(*keptOutput), true
}

// expire drops the results kept longer than OutputTTL. Callers hold mu.
func (st *outputStore) expire() {
	cutoff := st.now().Add(-OutputTTL)
	for el := st.order.Front(); el != nil && el.Value.(*keptOutput).at.Before(cutoff); el = st.order.Front() {
		st.drop(el)
	}
}

// drop removes one result. Callers hold mu.
func (st *outputStore) drop(el *list.Element) {
	o := st.order.Remove(el).(*keptOutput)
	delete(st.byID, o.handle)
	st.bytes -= o.size
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestRateLimitedWarnings: a warning repeated on every search is written at
// most logRepeatBurst times per window, and the next line written after the
// window says how many were left out; info lines and the request log pass.
func TestRateLimitedWarnings(t *testing.T) {
	var buf bytes.Buffer
	h := newRateLimited(slog.NewJSONHandler(&buf, nil), 10*time.Second, 3)
	log := slog.New(h).With("component", "engine") // derived handlers share the counts
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	emit := func(at time.Duration, level slog.Level, msg string) {
		r := slog.NewRecord(t0.Add(at), level, msg, 0)
		r.AddAttrs(slog.String("error", "ollama down"))
		if err := log.Handler().Handle(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	const warn = "embedding a query failed; answering with keyword search"
	for i := range 100 { // 100 searches in 5 s
		emit(time.Duration(i)*50*time.Millisecond, slog.LevelWarn, warn)
		emit(time.Duration(i)*50*time.Millisecond, slog.LevelInfo, "rpc")
		emit(time.Duration(i)*50*time.Millisecond, slog.LevelError, "rpc")
	}
	emit(12*time.Second, slog.LevelWarn, warn)
	emit(12*time.Second, slog.LevelWarn, "another warning")

	var warns []map[string]any
	rpc := 0
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		switch m["msg"] {
		case warn:
			warns = append(warns, m)
		case "rpc":
			rpc++
		}
	}
	if rpc != 200 {
		t.Errorf("%d rpc lines, want all 200", rpc)
	}
	if len(warns) != 4 {
		t.Fatalf("%d warnings written, want 3 in the first window and 1 after it:\n%s", len(warns), buf.String())
	}
	if _, ok := warns[0]["repeated"]; ok {
		t.Errorf("first warning carries repeated: %v", warns[0])
	}
	if got := warns[3]["repeated"]; got != float64(97) {
		t.Errorf("warning after the window: repeated = %v, want 97", got)
	}
	if warns[3]["component"] != "engine" {
		t.Errorf("attributes lost: %v", warns[3])
	}
	if !strings.Contains(buf.String(), `"msg":"another warning"`) {
		t.Errorf("another message was held back by the first one's count")
	}
}

package embed

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"syscall"

	"github.com/ollama/ollama/api"
)

// ErrUnavailable means the embedder could not be reached or kept failing
// (connection refused, timeouts, server errors) after its retries. It is
// transient: the caller serves lexical results and tries again later. Errors
// from Embed and NewOllama wrap it; test with errors.Is.
var ErrUnavailable = errors.New("embedder unavailable")

// ErrModelNotFound means the embedding model is not installed on the Ollama
// server. The wrapping error says which command installs it.
var ErrModelNotFound = errors.New("embedding model not found")

// transient reports whether a failed Ollama call is worth retrying:
// connection failures, per-call timeouts, 429 and 5xx answers. 4xx answers
// and the caller's own cancellation are not.
func transient(err error) bool {
	var se api.StatusError
	if errors.As(err, &se) {
		return se.StatusCode == http.StatusTooManyRequests || se.StatusCode >= 500
	}
	if errors.Is(err, context.Canceled) {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// statusCode returns the HTTP status of an Ollama error answer, or 0.
func statusCode(err error) int {
	var se api.StatusError
	if errors.As(err, &se) {
		return se.StatusCode
	}
	return 0
}

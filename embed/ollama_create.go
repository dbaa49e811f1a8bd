package embed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"

	"github.com/ollama/ollama/api"
)

// CreateOllamaModel registers a GGUF model file under name on the Ollama
// server at host (see OllamaConfig.Host), like `ollama create NAME -f
// Modelfile` with "FROM ./model.gguf" and the given parameters: it uploads
// the file as a blob (skipped by the server when it already has it) and
// creates the model from it. params are Modelfile parameters, e.g.
// {"num_thread": 1}; nil means none. It fails, wrapping ErrUnavailable,
// when the server cannot be reached.
func CreateOllamaModel(ctx context.Context, host, name string, model []byte, params map[string]any) error {
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("ollama: model name is empty; choose one, e.g. toolsearch-wink")
	}
	base, err := ollamaURL(host)
	if err != nil {
		return err
	}
	client := api.NewClient(base, &http.Client{Transport: http.DefaultTransport})
	sum := sha256.Sum256(model)
	digest := "sha256:" + hex.EncodeToString(sum[:])
	if err := client.CreateBlob(ctx, digest, bytes.NewReader(model)); err != nil {
		return createError(base.String(), name, "upload the model file", err)
	}
	stream := false
	req := &api.CreateRequest{
		Model:      name,
		Stream:     &stream,
		Files:      map[string]string{"model.gguf": digest},
		Parameters: params,
	}
	if err := client.Create(ctx, req, func(api.ProgressResponse) error { return nil }); err != nil {
		return createError(base.String(), name, "create the model", err)
	}
	return nil
}

func createError(host, name, what string, err error) error {
	if transient(err) {
		return fmt.Errorf("ollama: %s %q on %s: %w: %w", what, name, host, ErrUnavailable, err)
	}
	return fmt.Errorf("ollama: %s %q on %s: %w", what, name, host, err)
}

// Package topics holds a small word-vector model with a known geometry: a
// demonstration model, not test code. The ollamamodel command serves it for
// smoke checks, and tests of the GGUF static model and of embedders serving
// it use it, without the built-in model's vectors.
package topics

import (
	"math"
	"math/rand/v2"

	"github.com/toolsearch/toolsearch/embed/gguf"
)

// TopicDims is the length of TopicModel's word vectors.
const TopicDims = 32

// topics groups the words of TopicModel: words of one topic have nearby
// vectors, words of different topics nearly orthogonal ones.
var topics = []struct {
	name  string
	words []string
}{
	{"weather", []string{"weather", "forecast", "temperature", "rain", "snow", "sunny", "wind", "humidity", "climate", "storm", "cloudy", "celsius"}},
	{"email", []string{"email", "mail", "inbox", "message", "send", "reply", "recipient", "subject", "attachment", "compose", "gmail", "outbox"}},
	{"files", []string{"file", "files", "folder", "directory", "read", "write", "path", "disk", "upload", "download", "document", "delete"}},
	{"calendar", []string{"calendar", "event", "meeting", "schedule", "appointment", "date", "invite", "agenda", "reminder", "booking"}},
	{"code", []string{"code", "repository", "commit", "branch", "github", "pull", "merge", "issue", "build", "deploy", "test", "bug"}},
	{"money", []string{"payment", "invoice", "price", "stock", "currency", "bank", "transfer", "balance", "exchange", "wallet"}},
	{"maps", []string{"map", "location", "route", "directions", "address", "distance", "city", "nearby", "place", "travel"}},
}

// generalWords carry little meaning; they get small random vectors and low
// weights, as frequent words do under smooth inverse frequency weighting.
var generalWords = []string{"the", "a", "to", "of", "and", "in", "for", "on", "with", "get", "set", "list", "my", "me", "what", "is", "an", "new", "all", "by"}

// TopicModel returns a deterministic model of about a hundred words in seven
// topics (weather, email, files, calendar, code, money, maps) plus frequent
// general words. Texts about one topic embed near each other: "weather
// forecast" is close to "get the weather" and far from "send an email".
func TopicModel() *gguf.StaticModel {
	rng := rand.New(rand.NewPCG(42, 7))
	m := &gguf.StaticModel{Name: "toolsearch-topics", Subwords: 1000, ContextLength: 512}
	for _, w := range generalWords {
		m.Words = append(m.Words, w)
		m.Vectors = append(m.Vectors, scaled(randomUnit(rng), 0.3))
		m.Weights = append(m.Weights, 0.2)
	}
	for _, t := range topics {
		center := randomUnit(rng)
		for _, w := range t.words {
			v := randomUnit(rng)
			for j := range v {
				v[j] = center[j] + 0.35*v[j]
			}
			m.Words = append(m.Words, w)
			m.Vectors = append(m.Vectors, v)
			m.Weights = append(m.Weights, 1)
		}
	}
	return m
}

func randomUnit(rng *rand.Rand) []float32 {
	v := make([]float32, TopicDims)
	var n float64
	for j := range v {
		x := rng.NormFloat64()
		v[j] = float32(x)
		n += x * x
	}
	return scaled(v, float32(1/math.Sqrt(n)))
}

func scaled(v []float32, s float32) []float32 {
	for j := range v {
		v[j] *= s
	}
	return v
}

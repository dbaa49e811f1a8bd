package topics

import "testing"

func TestTopicModel(t *testing.T) {
	m := TopicModel()
	if _, err := m.File(); err != nil {
		t.Fatalf("TopicModel().File(): %v", err)
	}
	if got := len(m.Vectors[0]); got != TopicDims {
		t.Errorf("dims = %d, want %d", got, TopicDims)
	}
	seen := map[string]bool{}
	for _, w := range m.Words {
		if seen[w] {
			t.Errorf("word %q appears twice", w)
		}
		seen[w] = true
	}
}

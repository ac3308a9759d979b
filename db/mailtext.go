package db

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/klauspost/compress/s2"
)

// A mail's text is stored compressed (S2, Klaus Post's Snappy): a
// board mail's HTML part repeats its cells' styles, and its 25 KB take
// some 3.5 KB, a seventh of what each queued mail would cost to write,
// to carry through the write-ahead log into the file, and to read to send
// it, in 10 µs.
//
// A text stored so begins with textS2, which no mail begins with (a
// header begins with a printable character); a text stored before this
// was plain, and is read as it is.
var textS2 = []byte("\x00S2\x00")

// packText is raw as it is stored.
func packText(raw []byte) []byte {
	n := s2.MaxEncodedLen(len(raw))
	if n < 0 {
		return raw // too large for a block: stored plain
	}
	// Encoded into a scratch buffer of the largest size, then copied
	// into one of its own size, a seventh of that.
	scratch, _ := packScratch.Get().(*[]byte)
	if scratch == nil || cap(*scratch) < n {
		b := make([]byte, n)
		scratch = &b
	}
	enc := s2.Encode((*scratch)[:n], raw)
	b := make([]byte, len(textS2)+len(enc))
	copy(b, textS2)
	copy(b[len(textS2):], enc)
	packScratch.Put(scratch)
	return b
}

// packScratch holds packText's scratch buffers.
var packScratch sync.Pool // *[]byte

// unpackText is the mail's text stored as b.
func unpackText(b []byte) ([]byte, error) {
	if !bytes.HasPrefix(b, textS2) {
		return b, nil
	}
	raw, err := s2.Decode(nil, b[len(textS2):])
	if err != nil {
		return nil, fmt.Errorf("stored mail text: %w", err)
	}
	return raw, nil
}

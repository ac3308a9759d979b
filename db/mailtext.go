package db

import (
	"bytes"
	"fmt"

	"github.com/klauspost/compress/s2"
)

// A mail's text is stored compressed (S2, a Snappy of Klaus Post's): a
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
	b := make([]byte, len(textS2)+n)
	copy(b, textS2)
	enc := s2.Encode(b[len(textS2):], raw) // in b: it is large enough
	return b[:len(textS2)+len(enc)]
}

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

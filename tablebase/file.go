package tablebase

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
)

// Files. Each material's table is a file of its own in the directory,
// named after the material ("LZvLE.ctb"): a header of 16 bytes (the
// magic "CongoTB" and the format's version, the number of entries and
// their CRC-32, both little-endian) and then one byte per place of the
// table (see probe.go for what a byte says).

const (
	magic      = "CongoTB\x01"
	headerSize = 16
	// Ext is the file name extension of a table.
	Ext = ".ctb"
)

// FileName returns the name of the file of m's table in a directory.
func FileName(m Material) string {
	if !m.canonical() {
		m = m.mirror()
	}
	return m.String() + Ext
}

// ErrNoTables is returned, wrapped, by Open for a directory that holds no
// table.
var ErrNoTables = errors.New("no endgame tables")

// Open reads the tables of dir into memory, every file of a material of
// at most MaxPieces pieces there, and checks each (its size and CRC). A
// material whose file is missing is not in the tables: Probe says Unknown.
func Open(dir string) (*Tables, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	ts := new(Tables)
	for _, m := range Materials(MaxPieces) {
		t, err := readTable(dir, m)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		ts.add(t)
	}
	if len(ts.tables) == 0 {
		return nil, fmt.Errorf("%s: %w (build them with congo tables %s)", dir, ErrNoTables, dir)
	}
	return ts, nil
}

// readTable reads the table of the canonical m from dir.
func readTable(dir string, m Material) (*table, error) {
	path := filepath.Join(dir, FileName(m))
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	want := size(m)
	switch {
	case len(b) < headerSize || string(b[:8]) != magic:
		return nil, fmt.Errorf("%s: not a Congo endgame table", path)
	case int(binary.LittleEndian.Uint32(b[8:])) != want || len(b) != headerSize+want:
		return nil, fmt.Errorf("%s: %d entries, want %d: build it again", path, len(b)-headerSize, want)
	case crc32.ChecksumIEEE(b[headerSize:]) != binary.LittleEndian.Uint32(b[12:]):
		return nil, fmt.Errorf("%s: damaged (its checksum is wrong): build it again", path)
	}
	return &table{m: m, sides: sides(m), data: b[headerSize:]}, nil
}

// writeTable writes t into dir, through a temporary file renamed at the
// end, so that a file of the table is always whole.
func writeTable(dir string, t *table) error {
	var h [headerSize]byte
	copy(h[:], magic)
	binary.LittleEndian.PutUint32(h[8:], uint32(len(t.data)))
	binary.LittleEndian.PutUint32(h[12:], crc32.ChecksumIEEE(t.data))
	path := filepath.Join(dir, FileName(t.m))
	tmp, err := os.CreateTemp(dir, ".tmp-"+t.m.String()+"-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(h[:])
	if err == nil {
		_, err = tmp.Write(t.data)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644) // as os.Create would make it, for the daemon's user
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

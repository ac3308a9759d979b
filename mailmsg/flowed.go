package mailmsg

import "strings"

// unflow undoes format=flowed (RFC 3676) in text, whose lines end in LF.
// A line that ends in a space is soft: the next line of the same quote
// depth continues it (with delsp, the space goes); the signature
// separator "-- " is never soft and never continues a line. Space-stuffing
// is removed. Lines keep their quote depth, written as one ">" per level
// and a space before the text; lines of different depths never join.
func unflow(text string, delsp bool) string {
	final := strings.HasSuffix(text, "\n")
	text = strings.TrimSuffix(text, "\n")
	var (
		b     strings.Builder
		soft  bool // the line written last was soft and is still open
		depth int  // the quote depth of the line written last
	)
	b.Grow(len(text))
	for i, line := range strings.Split(text, "\n") {
		d := 0
		for d < len(line) && line[d] == '>' {
			d++
		}
		line = line[d:]
		line = strings.TrimPrefix(line, " ") // space-stuffing (RFC 3676 4.4)
		sig := line == "-- "
		if !soft || d != depth || sig {
			if i > 0 {
				b.WriteByte('\n')
			}
			if d > 0 {
				b.WriteString(strings.Repeat(">", d))
				if line != "" {
					b.WriteByte(' ')
				}
			}
		}
		soft = !sig && strings.HasSuffix(line, " ")
		if soft && delsp {
			line = line[:len(line)-1]
		}
		b.WriteString(line)
		depth = d
	}
	if final {
		b.WriteByte('\n')
	}
	return b.String()
}

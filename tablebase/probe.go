package tablebase

import (
	"fmt"
	"math/bits"

	"github.com/congobymail/congo/rules"
)

// Result is the value of a position for the side to move. The zero value,
// Unknown, is a position outside the tables.
type Result uint8

// The results.
const (
	Unknown Result = iota
	Win
	Loss
	Draw
)

// Value is what the tables know of a position (M76): a win, a loss or a
// draw for the side to move, and for a win or a loss the distance N: the
// winner's moves until they capture the lion, the capturing move
// included, the winner hurrying and the loser delaying. A side with no
// legal move has lost: Loss with N 0 (R16).
type Value struct {
	Result Result
	N      int
}

// String writes v as congo probe prints it: "win 11", "loss 3", "draw"
// or "unknown".
func (v Value) String() string {
	switch v.Result {
	case Win:
		return fmt.Sprintf("win %d", v.N)
	case Loss:
		return fmt.Sprintf("loss %d", v.N)
	case Draw:
		return "draw"
	}
	return "unknown"
}

// Plies returns the plies until the game ends for a win or a loss: 2N-1
// for a win (the winner's N moves and the loser's N-1 between them), 2N
// for a loss; 0 for a draw or Unknown.
func (v Value) Plies() int {
	switch v.Result {
	case Win:
		return 2*v.N - 1
	case Loss:
		return 2 * v.N
	}
	return 0
}

// Known reports whether v is in the tables.
func (v Value) Known() bool { return v.Result != Unknown }

// Entries. A table holds a byte per position: 0 for a draw, 1+d for a
// game that ends d plies from the position with best play (d odd: the
// side to move wins; even: it loses), and invalid for a place that is no
// position.
const (
	drawEntry    byte = 0
	invalidEntry byte = 0xff
	// maxPlies is the longest end an entry can say.
	maxPlies = int(invalidEntry) - 2
)

// valueOf returns the value an entry says.
func valueOf(b byte) Value {
	switch b {
	case drawEntry:
		return Value{Result: Draw}
	case invalidEntry:
		return Value{}
	}
	d := int(b) - 1
	if d%2 == 1 {
		return Value{Result: Win, N: (d + 1) / 2}
	}
	return Value{Result: Loss, N: d / 2}
}

// entryOf returns the entry of an end d plies away.
func entryOf(d int) byte { return byte(d + 1) }

// pliesOf returns the plies to the end an entry says, and whether it says
// one (false for a draw).
func pliesOf(b byte) (int, bool) {
	if b == drawEntry || b == invalidEntry {
		return 0, false
	}
	return int(b) - 1, true
}

// table is the table of one canonical material.
type table struct {
	m     Material
	sides int
	data  []byte
}

// materialKey packs a material's sorted pieces into a small number, for
// finding its table without a map.
func materialKey(m *Material) int {
	k := 0
	for _, pc := range m.pieces[:m.n] {
		k = k<<5 | int(pc)
	}
	return k
}

// keys is the number of material keys: MaxPieces pieces of 5 bits.
const keys = 1 << (5 * MaxPieces)

// Tables are the tables of a directory, in memory (Open), or those being
// built. The zero value knows the two lions alone. Tables are safe for
// use by several goroutines at once.
type Tables struct {
	// byKey holds, by the key of every material (canonical or not), the
	// table of its canonical form.
	byKey  [keys]*table
	tables []*table
	most   int // the most pieces besides the lions of a table held
}

// add makes t the table of its material and of the material's mirror.
func (ts *Tables) add(t *table) {
	ts.tables = append(ts.tables, t)
	ts.byKey[materialKey(&t.m)] = t
	mm := t.m.mirror()
	ts.byKey[materialKey(&mm)] = t
	ts.most = max(ts.most, t.m.n)
}

// Materials returns the materials of the tables held, in the order
// Materials(MaxPieces) gives.
func (ts *Tables) Materials() []Material {
	out := make([]Material, 0, len(ts.tables))
	for _, t := range ts.tables {
		out = append(out, t.m)
	}
	sortMaterials(out)
	return out
}

// MaxPieces returns the most pieces besides the lions of a table held: a
// position with more is not in the tables.
func (ts *Tables) MaxPieces() int { return ts.most }

// Probe returns the value of p for the side to move, Unknown when p is
// not in the tables: more pieces than a table holds, a material whose
// table is missing, or a lion already captured (M76). Two lions alone
// need no table: the side to move wins when it can capture the other
// lion (R4), and the game is drawn otherwise (R17). p's move number does
// not matter, nor the positions before it (R19).
func (ts *Tables) Probe(p rules.Position) Value {
	if p.Lion(rules.White) == rules.NoSquare || p.Lion(rules.Black) == rules.NoSquare {
		return Value{}
	}
	men := bits.OnesCount64(p.Occupied(rules.White) | p.Occupied(rules.Black))
	if men == 2 {
		if p.Attacks(p.Turn(), p.Lion(p.Turn().Other())) {
			return Value{Result: Win, N: 1}
		}
		return Value{Result: Draw}
	}
	if ts == nil || men-2 > ts.most {
		return Value{}
	}
	s := setupOf(&p)
	return valueOf(ts.entry(&s))
}

// entry returns the entry of s in its table, invalidEntry when the table
// is missing. s has at least one piece besides the lions.
func (ts *Tables) entry(s *setup) byte {
	m := s.material()
	t := ts.byKey[materialKey(&m)]
	if t == nil {
		return invalidEntry
	}
	s.canonicalize(m != t.m || t.sides == 1 && s.turn == rules.Black)
	return t.data[s.index(t.sides)]
}

// After returns the value, for the side to move in p, of playing m there:
// what the position after m is worth to the other side, turned round (a
// capture of the lion is a win in 1). It is Unknown when the position
// after m is not in the tables.
func (ts *Tables) After(p rules.Position, m rules.Move) Value {
	child := p.After(m)
	if child.Lion(child.Turn()) == rules.NoSquare {
		return Value{Result: Win, N: 1}
	}
	switch v := ts.Probe(child); v.Result {
	case Win:
		return Value{Result: Loss, N: v.N}
	case Loss:
		return Value{Result: Win, N: v.N + 1}
	case Draw:
		return v
	}
	return Value{}
}

// Better reports whether a is a better value than b for the side to move:
// a win beats a draw, a draw a loss, a quicker win a slower one, and a
// longer loss a quicker one. Unknown is worse than every value.
func Better(a, b Value) bool { return a.rank() > b.rank() }

func (v Value) rank() int {
	switch v.Result {
	case Win:
		return 2000 - v.N
	case Draw:
		return 0
	case Loss:
		return -1000 + v.N
	}
	return -2000
}

// BestMove returns the move of p that keeps its value (Probe): the
// quickest win, a move that keeps a draw, or the longest defence; the
// first such among p.Legal() when several do. ok is false when p is not
// in the tables or has no legal move.
func (ts *Tables) BestMove(p rules.Position) (best rules.Move, ok bool) {
	if !ts.Probe(p).Known() {
		return rules.Move{}, false
	}
	var bestValue Value
	for _, m := range p.Legal() {
		if v := ts.After(p, m); !ok || Better(v, bestValue) {
			best, bestValue, ok = m, v, true
		}
	}
	return best, ok
}

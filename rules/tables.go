package rules

// The tables below are computed once, when the package is initialised, and
// only read afterwards.

// Bitboards: bit s of a uint64 stands for Square s.
const (
	boardMask uint64 = 1<<49 - 1
	riverMask uint64 = 0x7f << (river * size)
	// notAligned marks a pair of squares with no lion's line between them.
	notAligned uint64 = 1 << 63
)

// jump is one monkey jump: over the piece on mid, onto land.
type jump struct{ mid, land Square }

type tables struct {
	king        [49]uint64 // one step in any of 8 directions
	knight      [49]uint64 // zebra (R5)
	elephant    [49]uint64 // one or two squares orthogonally (R6)
	giraffeJump [49]uint64 // two squares in a straight line (R7)
	lion        [2][49]uint64
	castle      [2]uint64
	pawnFwd     [2][49]uint64 // one step straight or diagonally forward (R10)
	superFwd    [2][49]uint64 // pawnFwd plus one step sideways (R12)
	lastRank    [2]uint64

	// Ordered lists for generating moves (counting uses the masks).
	pawnFwdList  [2][49][]Square // straight, then towards file a, then towards file g
	superFwdList [2][49][]Square // pawnFwdList, then sideways towards a, towards g
	pawnBack     [2][49][]Square // straight back 1 and 2, only beyond the river
	superBack    [2][49][][]Square
	crocRays     [49][][]Square // slides: along the file to the river, along the river
	monkeyJumps  [49][]jump

	// between[a][b]: the squares strictly between a and b when they share a
	// file or a diagonal, else notAligned (R4's flying capture).
	between [49][49]uint64

	// Zobrist keys (Position.Hash): one per piece and square, and one for
	// Black to move.
	zobrist      [32][49]uint64
	zobristBlack uint64
}

var tab = buildTables()

// directions lists the 8 directions as (file, rank) steps: orthogonal first.
var directions = [8][2]int{{0, 1}, {0, -1}, {-1, 0}, {1, 0}, {-1, 1}, {1, 1}, {-1, -1}, {1, -1}}

func onBoard(f, r int) bool { return 0 <= f && f < size && 0 <= r && r < size }

// forward returns the rank step forward for c.
func forward(c Color) int {
	if c == White {
		return 1
	}
	return -1
}

// ray returns up to n squares from s in direction (df, dr), nearest first.
func ray(s Square, df, dr, n int) []Square {
	var out []Square
	f, r := s.File(), s.Rank()
	for i := 1; i <= n; i++ {
		f, r = f+df, r+dr
		if !onBoard(f, r) {
			break
		}
		out = append(out, squareAt(f, r))
	}
	return out
}

func buildTables() *tables {
	t := new(tables)
	for r := 0; r < size; r++ {
		for f := 2; f <= 4; f++ {
			if r <= 2 {
				t.castle[White] |= squareAt(f, r).bit()
			} else if r >= 4 {
				t.castle[Black] |= squareAt(f, r).bit()
			}
		}
	}
	t.lastRank[White] = 0x7f << (6 * size)
	t.lastRank[Black] = 0x7f
	for s := Square(0); s < NoSquare; s++ {
		f, r := s.File(), s.Rank()
		set := func(m *uint64, df, dr int) {
			if onBoard(f+df, r+dr) {
				*m |= squareAt(f+df, r+dr).bit()
			}
		}
		for i, d := range directions {
			set(&t.king[s], d[0], d[1])
			set(&t.giraffeJump[s], 2*d[0], 2*d[1])
			if i < 4 {
				set(&t.elephant[s], d[0], d[1])
				set(&t.elephant[s], 2*d[0], 2*d[1])
			}
			if onBoard(f+2*d[0], r+2*d[1]) {
				t.monkeyJumps[s] = append(t.monkeyJumps[s], jump{
					mid:  squareAt(f+d[0], r+d[1]),
					land: squareAt(f+2*d[0], r+2*d[1]),
				})
			}
		}
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			set(&t.knight[s], d[0], d[1])
		}
		for c := White; c <= Black; c++ {
			t.lion[c][s] = t.king[s] & t.castle[c]
			fw := forward(c)
			for _, df := range []int{0, -1, 1} {
				if onBoard(f+df, r+fw) {
					to := squareAt(f+df, r+fw)
					t.pawnFwd[c][s] |= to.bit()
					t.pawnFwdList[c][s] = append(t.pawnFwdList[c][s], to)
				}
			}
			t.superFwd[c][s] = t.pawnFwd[c][s]
			t.superFwdList[c][s] = append([]Square(nil), t.pawnFwdList[c][s]...)
			for _, df := range []int{-1, 1} {
				if onBoard(f+df, r) {
					to := squareAt(f+df, r)
					t.superFwd[c][s] |= to.bit()
					t.superFwdList[c][s] = append(t.superFwdList[c][s], to)
				}
			}
			if beyondRiver(c, s) {
				t.pawnBack[c][s] = ray(s, 0, -fw, 2)
			}
			for _, df := range []int{0, -1, 1} {
				if back := ray(s, df, -fw, 2); len(back) > 0 {
					t.superBack[c][s] = append(t.superBack[c][s], back)
				}
			}
		}
		switch {
		case r < river:
			t.crocRays[s] = [][]Square{ray(s, 0, 1, river-r)}
		case r > river:
			t.crocRays[s] = [][]Square{ray(s, 0, -1, r-river)}
		default:
			for _, df := range []int{-1, 1} {
				if along := ray(s, df, 0, size); len(along) > 0 {
					t.crocRays[s] = append(t.crocRays[s], along)
				}
			}
		}
	}
	state := uint64(0x436f6e676f) // "Congo": fixed, so keys are the same in every run
	for pc := range t.zobrist {
		for s := range t.zobrist[pc] {
			t.zobrist[pc][s] = splitmix64(&state)
		}
	}
	t.zobristBlack = splitmix64(&state)
	for a := Square(0); a < NoSquare; a++ {
		for b := Square(0); b < NoSquare; b++ {
			t.between[a][b] = notAligned
		}
		// Files and diagonals only: the lions never share a rank.
		for _, d := range [6][2]int{{0, 1}, {0, -1}, {-1, 1}, {1, 1}, {-1, -1}, {1, -1}} {
			var mask uint64
			for _, s := range ray(a, d[0], d[1], size) {
				t.between[a][s] = mask
				mask |= s.bit()
			}
		}
	}
	return t
}

// beyondRiver reports whether s lies beyond the river for a pawn of color
// c: ranks 5-7 for White, ranks 1-3 for Black (R10).
func beyondRiver(c Color, s Square) bool {
	if c == White {
		return s.Rank() > river
	}
	return s.Rank() < river
}

func inRiver(s Square) bool { return s.Rank() == river }

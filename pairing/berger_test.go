package pairing

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// numbers are the handles "1".."n", so that a round reads as the tables.
func numbers(n int) []string {
	hs := make([]string, n)
	for i := range hs {
		hs[i] = strconv.Itoa(i + 1)
	}
	return hs
}

// tableString writes rounds as the published tables do: one round a
// line, "White-Black" board by board, and "bye N" when someone sits out.
func tableString(rounds []Round) string {
	var b strings.Builder
	for i, rd := range rounds {
		fmt.Fprintf(&b, "%d.", i+1)
		for _, g := range rd.Games {
			fmt.Fprintf(&b, " %s-%s", g.White, g.Black)
		}
		if rd.Bye != "" {
			fmt.Fprintf(&b, " bye %s", rd.Bye)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// The tables of FIDE Handbook C.05 Annex 1, copied by hand.
var fideBerger = map[int]string{
	4: `1. 1-4 2-3
2. 4-3 1-2
3. 2-4 3-1
`,
	6: `1. 1-6 2-5 3-4
2. 6-4 5-3 1-2
3. 2-6 3-1 4-5
4. 6-5 1-4 2-3
5. 3-6 4-2 5-1
`,
	8: `1. 1-8 2-7 3-6 4-5
2. 8-5 6-4 7-3 1-2
3. 2-8 3-1 4-7 5-6
4. 8-6 7-5 1-4 2-3
5. 3-8 4-2 5-1 6-7
6. 8-7 1-6 2-5 3-4
7. 4-8 5-3 6-2 7-1
`,
	10: `1. 1-10 2-9 3-8 4-7 5-6
2. 10-6 7-5 8-4 9-3 1-2
3. 2-10 3-1 4-9 5-8 6-7
4. 10-7 8-6 9-5 1-4 2-3
5. 3-10 4-2 5-1 6-9 7-8
6. 10-8 9-7 1-6 2-5 3-4
7. 4-10 5-3 6-2 7-1 8-9
8. 10-9 1-8 2-7 3-6 4-5
9. 5-10 6-4 7-3 8-2 9-1
`,
}

func TestBergerFIDE(t *testing.T) {
	t.Parallel()
	for _, n := range []int{4, 6, 8, 10} {
		if got, want := tableString(Berger(numbers(n), false)), fideBerger[n]; got != want {
			t.Errorf("Berger(%d players) =\n%s\nwant\n%s", n, got, want)
		}
	}
}

// An odd field plays the table of one more, the highest number's
// opponent sitting out: 3 players play the table of 4 without number 4.
func TestBergerOdd(t *testing.T) {
	t.Parallel()
	want := `1. 2-3 bye 1
2. 1-2 bye 3
3. 3-1 bye 2
`
	if got := tableString(Berger([]string{"1", "2", "3"}, false)); got != want {
		t.Errorf("Berger(3 players) =\n%s\nwant\n%s", got, want)
	}
}

// The double round robin of 4: the table with rounds 2 and 3 swapped,
// then the table again with the colours reversed.
func TestBergerDouble(t *testing.T) {
	t.Parallel()
	want := `1. 1-4 2-3
2. 2-4 3-1
3. 4-3 1-2
4. 4-1 3-2
5. 3-4 2-1
6. 4-2 1-3
`
	if got := tableString(Berger(numbers(4), true)); got != want {
		t.Errorf("Berger(4 players, double) =\n%s\nwant\n%s", got, want)
	}
}

func TestBergerSmall(t *testing.T) {
	t.Parallel()
	for n := range 2 {
		if got := Berger(numbers(n), true); len(got) != 0 {
			t.Errorf("Berger(%d players) = %v, want no rounds", n, got)
		}
	}
	if got, want := tableString(Berger(numbers(2), true)), "1. 1-2\n2. 2-1\n"; got != want {
		t.Errorf("Berger(2 players, double) =\n%s\nwant\n%s", got, want)
	}
}

// TestBergerBalance checks every field of 2 to 24 players, single and
// double: each pair meets once a cycle (with each colour once in a
// double), each player sits out once a cycle when the field is odd and
// never otherwise, whites and blacks differ by at most one after the
// first cycle and are equal after the second, and in a double nobody
// has one colour three games running.
func TestBergerBalance(t *testing.T) {
	t.Parallel()
	for n := 2; n <= 24; n++ {
		for _, double := range []bool{false, true} {
			hs := numbers(n)
			rounds := Berger(hs, double)
			cycles := 1
			if double {
				cycles = 2
			}
			m := n + n%2
			if len(rounds) != cycles*(m-1) {
				t.Errorf("Berger(%d, %v): %d rounds, want %d", n, double, len(rounds), cycles*(m-1))
				continue
			}
			meets := map[[2]string]int{} // White, Black -> games
			byes := map[string]int{}
			colours := map[string]string{} // handle -> "WB..." in round order
			for _, rd := range rounds {
				if len(rd.Games) != n/2 {
					t.Errorf("Berger(%d, %v): a round has %d games, want %d", n, double, len(rd.Games), n/2)
				}
				for _, g := range rd.Games {
					meets[[2]string{g.White, g.Black}]++
					colours[g.White] += "W"
					colours[g.Black] += "B"
				}
				if rd.Bye != "" {
					byes[rd.Bye]++
				}
			}
			for i, a := range hs {
				if want := cycles * (n % 2); byes[a] != want {
					t.Errorf("Berger(%d, %v): %s has %d byes, want %d", n, double, a, byes[a], want)
				}
				w, b := strings.Count(colours[a], "W"), strings.Count(colours[a], "B")
				if d := w - b; d < -1 || d > 1 || double && d != 0 {
					t.Errorf("Berger(%d, %v): %s has %d whites and %d blacks", n, double, a, w, b)
				}
				if double && (strings.Contains(colours[a], "WWW") || strings.Contains(colours[a], "BBB")) {
					t.Errorf("Berger(%d, %v): %s plays %s", n, double, a, colours[a])
				}
				for _, b := range hs[i+1:] {
					ab, ba := meets[[2]string{a, b}], meets[[2]string{b, a}]
					if !double && ab+ba != 1 || double && (ab != 1 || ba != 1) {
						t.Errorf("Berger(%d, %v): %s-%s %d times, %s-%s %d times", n, double, a, b, ab, b, a, ba)
					}
				}
			}
		}
	}
}

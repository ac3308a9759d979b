package pairing

import (
	"math/rand/v2"
	"testing"
)

// bruteMatching is the size of a maximum matching of the graph on the
// vertices of mask, by trying every partner of the lowest vertex.
func bruteMatching(adj [][]bool, mask uint32, memo map[uint32]int) int {
	if mask == 0 {
		return 0
	}
	if m, ok := memo[mask]; ok {
		return m
	}
	i := 0
	for mask&(1<<i) == 0 {
		i++
	}
	rest := mask &^ (1 << i)
	best := bruteMatching(adj, rest, memo) // i single
	for j := i + 1; j < len(adj); j++ {
		if rest&(1<<j) != 0 && adj[i][j] {
			best = max(best, 1+bruteMatching(adj, rest&^(1<<j), memo))
		}
	}
	memo[mask] = best
	return best
}

// TestMatcher compares the blossom algorithm with trying every matching
// on random graphs of up to 14 vertices, sparse to dense, and on subsets
// of them.
func TestMatcher(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(13, 36))
	for it := range 3000 {
		n := 1 + rng.IntN(14)
		density := rng.Float64()
		adj := make([][]bool, n)
		for i := range adj {
			adj[i] = make([]bool, n)
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				if rng.Float64() < density {
					adj[i][j], adj[j][i] = true, true
				}
			}
		}
		var vs []int
		var mask uint32
		for i := range n {
			if it%2 == 0 || rng.IntN(3) > 0 {
				vs = append(vs, i)
				mask |= 1 << i
			}
		}
		want := bruteMatching(adj, mask, map[uint32]int{})
		m := newMatcher(adj)
		if got := m.size(vs, false); got != want {
			t.Fatalf("size(%v) = %d, want %d; graph %v", vs, got, want, adj)
		}
		perfect := 2*want == len(vs)
		if got := m.size(vs, true); (2*got == len(vs)) != perfect {
			t.Fatalf("size(%v, perfect) = %d, want perfect %v; graph %v", vs, got, perfect, adj)
		}
	}
}

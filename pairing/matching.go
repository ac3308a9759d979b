package pairing

// matcher finds maximum matchings in a graph over the players, the pairs
// allowed to meet, by Edmonds' blossom algorithm: pairing looks ahead
// with it, asking whether the players left can still be paired.
type matcher struct {
	adj [][]bool // adj[i][j]: players i and j may be paired

	// Scratch for one call, indexed by position in the subset.
	vs                 []int
	match, p, base, q  []int
	inQueue, inBlossom []bool
	lcaMark            []int
	lcaStamp           int
}

func newMatcher(adj [][]bool) *matcher {
	return &matcher{adj: adj}
}

// size returns the size of a maximum matching among the players vs. With
// perfect it stops, returning a smaller size, as soon as it knows that
// no matching pairs every one of them.
func (m *matcher) size(vs []int, perfect bool) int {
	n := len(vs)
	m.vs = vs
	m.match = fill(m.match, n, -1)
	m.p = fill(m.p, n, -1)
	m.base = fill(m.base, n, 0)
	m.q = fill(m.q, n, 0)
	m.lcaMark = fill(m.lcaMark, n, 0)
	m.inQueue = fillBool(m.inQueue, n)
	m.inBlossom = fillBool(m.inBlossom, n)
	size := 0
	for i := range n { // a greedy start leaves few paths to find
		if m.match[i] != -1 {
			continue
		}
		for j := i + 1; j < n; j++ {
			if m.match[j] == -1 && m.edge(i, j) {
				m.match[i], m.match[j] = j, i
				size++
				break
			}
		}
	}
	for root := range n {
		if m.match[root] != -1 {
			continue
		}
		v := m.augmentingPath(root)
		if v == -1 {
			if perfect {
				return size // root stays single in every maximum matching
			}
			continue
		}
		for v != -1 {
			pv := m.p[v]
			ppv := m.match[pv]
			m.match[v], m.match[pv] = pv, v
			v = ppv
		}
		size++
	}
	return size
}

func (m *matcher) edge(i, j int) bool { return m.adj[m.vs[i]][m.vs[j]] }

// augmentingPath searches, breadth first with blossoms shrunk, for a path
// from root to a single vertex alternating between unmatched and matched
// edges. It returns the path's far end, whose p links lead back to root,
// or -1.
func (m *matcher) augmentingPath(root int) int {
	n := len(m.vs)
	for i := range n {
		m.p[i], m.base[i], m.inQueue[i] = -1, i, false
	}
	m.inQueue[root] = true
	head, tail := 0, 0
	m.q[tail] = root
	tail++
	for head < tail {
		v := m.q[head]
		head++
		for to := range n {
			if to == v || !m.edge(v, to) || m.base[v] == m.base[to] || m.match[v] == to {
				continue
			}
			if to == root || m.match[to] != -1 && m.p[m.match[to]] != -1 {
				// An odd cycle: shrink it into a blossom based at b.
				b := m.lca(v, to)
				for i := range n {
					m.inBlossom[i] = false
				}
				m.markPath(v, b, to)
				m.markPath(to, b, v)
				for i := range n {
					if m.inBlossom[m.base[i]] {
						m.base[i] = b
						if !m.inQueue[i] {
							m.inQueue[i] = true
							m.q[tail] = i
							tail++
						}
					}
				}
			} else if m.p[to] == -1 {
				m.p[to] = v
				if m.match[to] == -1 {
					return to
				}
				next := m.match[to]
				m.inQueue[next] = true
				m.q[tail] = next
				tail++
			}
		}
	}
	return -1
}

// lca is the base of the blossom closing at the edge a-b: the first
// vertex that both a's and b's paths back to the root reach.
func (m *matcher) lca(a, b int) int {
	m.lcaStamp++
	for {
		a = m.base[a]
		m.lcaMark[a] = m.lcaStamp
		if m.match[a] == -1 {
			break
		}
		a = m.p[m.match[a]]
	}
	for {
		b = m.base[b]
		if m.lcaMark[b] == m.lcaStamp {
			return b
		}
		b = m.p[m.match[b]]
	}
}

// markPath marks the blossom's vertices on the path from v down to its
// base b, and points their p links across the closing edge, to child.
func (m *matcher) markPath(v, b, child int) {
	for m.base[v] != b {
		m.inBlossom[m.base[v]] = true
		m.inBlossom[m.base[m.match[v]]] = true
		m.p[v] = child
		child = m.match[v]
		v = m.p[m.match[v]]
	}
}

func fill(s []int, n, x int) []int {
	if cap(s) < n {
		s = make([]int, n)
	}
	s = s[:n]
	for i := range s {
		s[i] = x
	}
	return s
}

func fillBool(s []bool, n int) []bool {
	if cap(s) < n {
		s = make([]bool, n)
	}
	s = s[:n]
	clear(s)
	return s
}

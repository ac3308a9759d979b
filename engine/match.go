package engine

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/congobymail/congo/rules"
)

// Decision is what a player does on its turn: a move, or resigning.
type Decision struct {
	Move   rules.Move
	Resign bool
	Score  int // the search's score, from the player's view; 0 for players that do not search
	Nodes  int64
	Stop   Stop // what ended the search; StopNone for players that do not search
}

// Player chooses moves in games between programs.
type Player interface {
	// Name is the name the player was made from by NewPlayer.
	Name() string
	// NewGame starts a game: the player forgets the last one and takes
	// seed for its choices.
	NewGame(seed uint64)
	// Play chooses a move in p, where the game is not over, after the
	// game's positions before (oldest first, p not among them). now is
	// when the move starts, for time limits.
	Play(ctx context.Context, before []rules.Position, p rules.Position, now time.Time) Decision
}

// NewPlayer returns the player called name: a level "1" to "5", "random"
// (any legal move, each as likely) or "greedy" (the capture that takes the
// most, by DefaultWeights, else any move). now reads the clock for the
// levels' time limits.
func NewPlayer(name string, now func() time.Time) (Player, error) {
	switch name {
	case "random":
		return &randomPlayer{}, nil
	case "greedy":
		return &greedyPlayer{}, nil
	}
	n, err := strconv.Atoi(name)
	if err != nil {
		return nil, fmt.Errorf("player %q: want a level %d-%d, random or greedy", name, MinLevel, MaxLevel)
	}
	l, err := LevelOf(n)
	if err != nil {
		return nil, fmt.Errorf("player %q: %w", name, err)
	}
	return &levelPlayer{name: name, n: n, level: l, now: now}, nil
}

// NewPlayerWithTables is NewPlayer with endgame tables: the levels from
// TablesLevel play by them (Options.Tables), and the name "tables" is a
// player that plays every position the tables hold by them (the
// quickest win, a draw kept, the longest defence) and any other as level
// 5 with them.
func NewPlayerWithTables(name string, now func() time.Time, tables Tables) (Player, error) {
	if name == "tables" {
		l, _ := LevelOf(MaxLevel)
		return &levelPlayer{name: name, n: MaxLevel, level: l, now: now, tables: tables}, nil
	}
	p, err := NewPlayer(name, now)
	if l, ok := p.(*levelPlayer); ok && l.n >= TablesLevel {
		l.tables = tables
	}
	return p, err
}

type randomPlayer struct{ rng *rand.Rand }

func (r *randomPlayer) Name() string        { return "random" }
func (r *randomPlayer) NewGame(seed uint64) { r.rng = rand.New(rand.NewPCG(seed, 1)) }
func (r *randomPlayer) Play(_ context.Context, _ []rules.Position, p rules.Position, _ time.Time) Decision {
	moves := p.Legal()
	return Decision{Move: moves[r.rng.IntN(len(moves))]}
}

type greedyPlayer struct{ rng *rand.Rand }

func (g *greedyPlayer) Name() string        { return "greedy" }
func (g *greedyPlayer) NewGame(seed uint64) { g.rng = rand.New(rand.NewPCG(seed, 2)) }
func (g *greedyPlayer) Play(_ context.Context, _ []rules.Position, p rules.Position, _ time.Time) Decision {
	return Decision{Move: Greedy(p, g.rng)}
}

// Greedy returns the move of a one-ply capturer in p: the capture that
// takes the most (the lion above all, then by the values of
// DefaultWeights, summed over a monkey's chain), else any move; rng
// breaks ties. The game must not be over.
func Greedy(p rules.Position, rng *rand.Rand) rules.Move {
	w := DefaultWeights()
	moves := p.Legal()
	best, ties := -1, 0
	var choice rules.Move
	for i := range moves {
		v := 0
		if moves[i].IsCapture() {
			taken, lion := captured(&p, &moves[i], p.At(moves[i].From()).Kind(), &w)
			v = 1 + taken
			if lion {
				v = math.MaxInt32
			}
		}
		switch {
		case v > best:
			best, ties, choice = v, 1, moves[i]
		case v == best:
			// Reservoir sampling: each of the ties is as likely.
			ties++
			if rng.IntN(ties) == 0 {
				choice = moves[i]
			}
		}
	}
	return choice
}

type levelPlayer struct {
	name    string
	n       int
	level   Level
	now     func() time.Time
	engine  *Engine
	scores  []int
	weights *Weights // nil for DefaultWeights
	tables  Tables   // nil for none
}

func (l *levelPlayer) Name() string { return l.name }

func (l *levelPlayer) NewGame(seed uint64) {
	if l.engine == nil {
		l.engine = New(Options{Seed: seed, Noise: l.level.Noise, Now: l.now, Weights: l.weights, Tables: l.tables})
	} else {
		l.engine.Reset()
		l.engine.opts.Seed = seed
	}
	l.scores = l.scores[:0]
}

func (l *levelPlayer) Play(ctx context.Context, before []rules.Position, p rules.Position, now time.Time) Decision {
	r := l.engine.SearchGame(ctx, before, p, l.level.Limits(now))
	l.scores = append(l.scores, r.Score)
	// A position the tables hold is played on to its end (M77).
	return Decision{Move: r.Move, Score: r.Score, Nodes: r.Nodes, Stop: r.Stop, Resign: !r.Tables && Hopeless(l.n, l.scores)}
}

// MatchOptions configure a match.
type MatchOptions struct {
	Games        int    // games to play: openings, each played with both colours
	Seed         uint64 // chooses the openings and seeds the players
	OpeningPlies int    // random legal plies from the start before the players take over
	MaxPlies     int    // a game still going after this many plies is drawn; 0 for 300
	// Starts, when given, are the positions the games start from instead
	// of the start and a random opening: games 2k and 2k+1 from
	// Starts[k % len(Starts)], a with the side to move first, then with
	// the other.
	Starts []rules.Position
}

// A game between programs is drawn when a position occurs for the third
// time (Repetitions), though R19 has no such rule for players: a program
// that cannot break a cycle would otherwise play to MaxPlies.
const matchRepetitions = 3

// Game is the record of one game of a match.
type Game struct {
	From    rules.Position // the position the game started from
	AWhite  bool           // player a had White
	Opening int            // plies of the random opening
	Moves   []rules.Move   // every move from the start, the opening's included
	Result  float64        // a's points: 1, 0.5 or 0
	Reason  string         // how it ended, like "white won: black's lion was captured"
	TimeCut int            // moves whose search the time cap stopped (StopDeadline)
}

// MatchResult counts the results of a match from player a's view.
type MatchResult struct {
	Wins, Draws, Losses int
}

// Games returns the number of games played.
func (r MatchResult) Games() int { return r.Wins + r.Draws + r.Losses }

// Score returns a's points per game, 0 to 1.
func (r MatchResult) Score() float64 {
	return (float64(r.Wins) + float64(r.Draws)/2) / float64(r.Games())
}

// Elo returns the difference in Elo rating of a over b the result
// suggests, and the margin of error (95%, normal approximation) either side
// of it. When a won or lost every game the difference is infinite; the
// margin is then the one-sided bound of the rule of three: a scored at
// least (or at most) the score whose difference Elo returns as margin.
func (r MatchResult) Elo() (diff, margin float64) {
	n := float64(r.Games())
	if n == 0 {
		return 0, math.Inf(1)
	}
	s := r.Score()
	switch {
	case r.Wins == r.Games():
		return math.Inf(1), eloOf(math.Pow(0.05, 1/n))
	case r.Losses == r.Games():
		return math.Inf(-1), eloOf(1 - math.Pow(0.05, 1/n))
	}
	variance := (float64(r.Wins)*(1-s)*(1-s) + float64(r.Draws)*(0.5-s)*(0.5-s) + float64(r.Losses)*s*s) / n
	se := math.Sqrt(variance / n)
	lo, hi := s-1.96*se, s+1.96*se
	switch {
	case hi >= 1 && lo <= 0:
		margin = math.Inf(1)
	case hi >= 1: // the interval is lopsided near the edges: take its finite side
		margin = eloOf(s) - eloOf(lo)
	case lo <= 0:
		margin = eloOf(hi) - eloOf(s)
	default:
		margin = (eloOf(hi) - eloOf(lo)) / 2
	}
	return eloOf(s), margin
}

// eloOf returns the Elo difference expected to score s per game.
func eloOf(s float64) float64 { return -400 * math.Log10(1/s-1) }

// Match plays a against b, o.Games games, and calls report after each
// game, when report is not nil. Game 2k and 2k+1 start from the same
// random opening, with a White in the first and Black in the second.
func Match(ctx context.Context, a, b Player, o MatchOptions, now func() time.Time, report func(i int, g Game)) (MatchResult, error) {
	if o.MaxPlies <= 0 {
		o.MaxPlies = 300
	}
	if now == nil {
		now = time.Now
	}
	var res MatchResult
	var opening []rules.Move
	for i := 0; i < o.Games; i++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		from := rules.Start()
		aWhite := i%2 == 0
		switch {
		case len(o.Starts) > 0:
			from = o.Starts[i/2%len(o.Starts)]
			aWhite = aWhite == (from.Turn() == rules.White)
		case i%2 == 0:
			opening = randomOpening(o.Seed, uint64(i/2), o.OpeningPlies)
		}
		seed := mix(o.Seed ^ uint64(i+1)*0x9e3779b97f4a7c15)
		g := PlayGameFrom(ctx, a, b, aWhite, from, opening, seed, o.MaxPlies, now)
		if err := ctx.Err(); err != nil {
			return res, err // the game was cut short: it does not count
		}
		switch g.Result {
		case 1:
			res.Wins++
		case 0:
			res.Losses++
		default:
			res.Draws++
		}
		if report != nil {
			report(i, g)
		}
	}
	return res, ctx.Err()
}

// randomOpening returns plies random legal moves from the start, chosen by
// seed and index, after which the game goes on and the side to move cannot
// capture the enemy lion at once: an opening the players decide.
func randomOpening(seed, index uint64, plies int) []rules.Move {
	rng := rand.New(rand.NewPCG(seed, index))
	for {
		p := rules.Start()
		var moves []rules.Move
		for len(moves) < plies && !p.Outcome().Over() {
			legal := p.Legal()
			m := legal[rng.IntN(len(legal))]
			p = p.After(m)
			moves = append(moves, m)
		}
		if !p.Outcome().Over() && !p.Attacks(p.Turn(), p.Lion(p.Turn().Other())) {
			return moves
		}
	}
}

// PlayGame plays one game between a and b from the start, after the
// moves of opening, and returns its record. aWhite gives a White. A game
// is drawn when a position occurs for the third time, or when it is longer
// than maxPlies; so is, for its record, a game cut short because ctx
// ended.
func PlayGame(ctx context.Context, a, b Player, aWhite bool, opening []rules.Move, seed uint64, maxPlies int, now func() time.Time) Game {
	return PlayGameFrom(ctx, a, b, aWhite, rules.Start(), opening, seed, maxPlies, now)
}

// PlayGameFrom is PlayGame from the position from instead of the start.
func PlayGameFrom(ctx context.Context, a, b Player, aWhite bool, from rules.Position, opening []rules.Move, seed uint64, maxPlies int, now func() time.Time) Game {
	g := Game{From: from, AWhite: aWhite, Opening: len(opening), Moves: append([]rules.Move(nil), opening...)}
	a.NewGame(seed)
	b.NewGame(seed + 1)
	p := from
	var before []rules.Position
	seen := map[uint64]int{p.Hash(): 1}
	for _, m := range opening {
		before = append(before, p)
		p = p.After(m)
		seen[p.Hash()]++
	}
	aColor := rules.White
	if !aWhite {
		aColor = rules.Black
	}
	points := func(winner rules.Color) float64 {
		if winner == aColor {
			return 1
		}
		return 0
	}
	for {
		if o := p.Outcome(); o.Over() {
			g.Reason = o.String()
			g.Result = 0.5
			if o.State == rules.Won {
				g.Result = points(o.Winner)
			}
			return g
		}
		if ctx.Err() != nil {
			g.Result, g.Reason = 0.5, fmt.Sprintf("stopped after %d plies", len(g.Moves))
			return g
		}
		if seen[p.Hash()] >= matchRepetitions {
			g.Result, g.Reason = 0.5, fmt.Sprintf("drawn: a position occurred %d times", matchRepetitions)
			return g
		}
		if len(g.Moves) >= maxPlies {
			g.Result, g.Reason = 0.5, fmt.Sprintf("drawn: %d plies played", len(g.Moves))
			return g
		}
		player := a
		if p.Turn() != aColor {
			player = b
		}
		d := player.Play(ctx, before, p, now())
		if d.Resign {
			g.Result = points(p.Turn().Other())
			g.Reason = fmt.Sprintf("%s won: %s resigned", p.Turn().Other(), p.Turn())
			return g
		}
		if d.Stop == StopDeadline {
			g.TimeCut++
		}
		before = append(before, p)
		p = p.After(d.Move)
		seen[p.Hash()]++
		g.Moves = append(g.Moves, d.Move)
	}
}

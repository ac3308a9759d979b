// Package rating computes Glicko-2 ratings, as in Mark E. Glickman,
// "Example of the Glicko-2 system" (2013). It is pure: no clock, no I/O.
package rating

import "math"

const (
	scale = 173.7178 // between the Glicko and the Glicko-2 scale
	tau   = 0.5      // how much the volatility may change
	eps   = 0.000001 // convergence of the volatility iteration
)

// Rating is a Glicko-2 rating on the Glicko scale.
type Rating struct {
	Rating     float64 // 1500 for a new player
	Deviation  float64 // how uncertain Rating is: 350 for a new player
	Volatility float64 // how erratic the player's results are: 0.06 for a new player
}

// Start is a new player's rating. No deviation grows beyond its.
var Start = Rating{Rating: 1500, Deviation: 350, Volatility: 0.06}

// Result is one game of a rating period: the opponent's rating before it
// and the score (1 a win, 0.5 a draw, 0 a loss).
type Result struct {
	Opponent Rating
	Score    float64
}

// Update returns the rating after the games of one rating period. With
// no games the deviation grows, as time without games makes a rating
// less certain, but never beyond Start's.
func (p Rating) Update(games []Result) Rating {
	mu, phi := (p.Rating-1500)/scale, p.Deviation/scale
	if len(games) == 0 {
		rd := min(scale*math.Sqrt(phi*phi+p.Volatility*p.Volatility), max(Start.Deviation, p.Deviation))
		return Rating{p.Rating, rd, p.Volatility}
	}
	var vInv, sum float64
	for _, o := range games {
		muJ, phiJ := (o.Opponent.Rating-1500)/scale, o.Opponent.Deviation/scale
		g := 1 / math.Sqrt(1+3*phiJ*phiJ/(math.Pi*math.Pi))
		e := 1 / (1 + math.Exp(-g*(mu-muJ)))
		vInv += g * g * e * (1 - e)
		sum += g * (o.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	vol := newVolatility(phi, v, delta, p.Volatility)
	phiStar := math.Sqrt(phi*phi + vol*vol)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return Rating{scale*muNew + 1500, scale * phiNew, vol}
}

// Game rates one game as a rating period of its own for both players
// (M16): score is White's (1 White won, 0.5 a draw, 0 Black won). Both new
// ratings are computed from the ratings before the game.
func Game(white, black Rating, score float64) (Rating, Rating) {
	return white.Update([]Result{{black, score}}), black.Update([]Result{{white, 1 - score}})
}

// newVolatility is step 5 of the algorithm: the Illinois iteration.
func newVolatility(phi, v, delta, vol float64) float64 {
	a := math.Log(vol * vol)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > eps && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

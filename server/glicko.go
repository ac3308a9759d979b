package server

import "math"

// Glicko-2, as in Mark E. Glickman, "Example of the Glicko-2 system"
// (2013). Every game is a rating period of its own (M16).
const (
	glickoScale = 173.7178 // between the Glicko and the Glicko-2 scale
	glickoTau   = 0.5      // how much the volatility may change
	glickoEps   = 0.000001 // convergence of the volatility iteration
)

// rating is a Glicko-2 rating on the Glicko scale (1500, 350, 0.06 for a
// new player).
type rating struct {
	r, rd, vol float64
}

// outcome is one game of a rating period: the opponent's rating before
// it and the score (1 win, 0.5 draw, 0 loss).
type outcome struct {
	opp   rating
	score float64
}

// update returns the rating after the games of one rating period.
func (p rating) update(games []outcome) rating {
	mu, phi := (p.r-1500)/glickoScale, p.rd/glickoScale
	if len(games) == 0 {
		return rating{p.r, glickoScale * math.Sqrt(phi*phi+p.vol*p.vol), p.vol}
	}
	var vInv, sum float64
	for _, o := range games {
		muJ, phiJ := (o.opp.r-1500)/glickoScale, o.opp.rd/glickoScale
		g := 1 / math.Sqrt(1+3*phiJ*phiJ/(math.Pi*math.Pi))
		e := 1 / (1 + math.Exp(-g*(mu-muJ)))
		vInv += g * g * e * (1 - e)
		sum += g * (o.score - e)
	}
	v := 1 / vInv
	delta := v * sum
	vol := newVolatility(phi, v, delta, p.vol)
	phiStar := math.Sqrt(phi*phi + vol*vol)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return rating{glickoScale*muNew + 1500, glickoScale * phiNew, vol}
}

// newVolatility is step 5 of the algorithm: the Illinois iteration.
func newVolatility(phi, v, delta, vol float64) float64 {
	a := math.Log(vol * vol)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(glickoTau*glickoTau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*glickoTau) < 0 {
			k++
		}
		B = a - k*glickoTau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > glickoEps && i < 100; i++ {
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

package web

import (
	"cmp"
	"context"
	"encoding/xml"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/rules"
)

// A player's Atom feed (RFC 4287, M44): an entry for each of their
// games' start, for each move after which it was their move, and for
// each result; the newest feedEntries of them.

// feedEntries is how many entries a feed holds, and feedGames how many of
// the player's games, the latest to change, it reads for them.
const (
	feedEntries = 50
	feedGames   = 100
)

type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	ID      string      `xml:"id"`
	Title   string      `xml:"title"`
	Updated string      `xml:"updated"`
	Author  atomPerson  `xml:"author"`
	Links   []atomLink  `xml:"link"`
	Entries []atomEntry `xml:"entry"`
}

type atomPerson struct {
	Name string `xml:"name"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomEntry struct {
	ID      string   `xml:"id"`
	Title   string   `xml:"title"`
	Updated string   `xml:"updated"`
	Link    atomLink `xml:"link"`
	Summary string   `xml:"summary"`
	at      time.Time
}

// feed answers /players/<handle>.atom.
func (h *Handler) feed(ctx context.Context, _ *http.Request, handle string) (*response, error) {
	var f atomFeed
	err := h.db.ReadTx(ctx, func(tx *db.Tx) error {
		p, err := profile(ctx, tx, handle)
		if err != nil {
			return err
		}
		page := h.absolute(h.playerHref(p.Handle))
		f = atomFeed{ID: page, Title: fmt.Sprintf("Congo: the games of %s", p.Handle),
			Author: atomPerson{Name: "Congo"},
			Links:  []atomLink{{Rel: "self", Type: "application/atom+xml", Href: page + ".atom"}, {Rel: "alternate", Type: "text/html", Href: page}}}
		f.Entries, err = h.entries(ctx, tx, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	// A feed without entries was updated when nothing happened: the
	// start of time will do, and it stays the same.
	updated := time.Unix(0, 0)
	if len(f.Entries) > 0 {
		updated = f.Entries[0].at
	}
	f.Updated = atomTime(updated)
	out, err := xml.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	body := append([]byte(xml.Header), out...)
	return &response{body: append(body, '\n'), contentType: "application/atom+xml; charset=utf-8"}, nil
}

// entries are the newest entries of a player's games, the newest first.
// The games are read the latest to change first: once the entries found
// are enough and newer than the next game's last change, no game left
// has a newer one.
func (h *Handler) entries(ctx context.Context, tx *db.Tx, p db.Profile) ([]atomEntry, error) {
	games, err := tx.PlayerGames(ctx, p.ID, feedGames)
	if err != nil {
		return nil, err
	}
	var out []atomEntry
	for _, g := range games {
		if len(out) >= feedEntries {
			sortEntries(out)
			out = out[:feedEntries]
			if !out[len(out)-1].at.Before(g.Updated) {
				break
			}
		}
		moves, err := tx.PublicMoves(ctx, g.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, h.gameEntries(g, p.ID, moves)...)
	}
	sortEntries(out)
	return out[:min(len(out), feedEntries)], nil
}

func sortEntries(es []atomEntry) {
	slices.SortStableFunc(es, func(a, b atomEntry) int { return cmp.Or(b.at.Compare(a.at), cmp.Compare(b.ID, a.ID)) })
}

// gameEntries are the entries of one game for player: its start, the
// moves after which it was the player's move, and its result.
func (h *Handler) gameEntries(g db.ListedGame, player int64, moves []db.Move) []atomEntry {
	page := h.absolute(fmt.Sprintf("%sgames/%d", h.base, g.ID))
	me, opp, colour := g.WhiteHandle, g.BlackHandle, "white"
	if g.Black == player {
		me, opp, colour = g.BlackHandle, g.WhiteHandle, "black"
	}
	entry := func(id, title, summary, link string, at time.Time) atomEntry {
		return atomEntry{ID: id, Title: title, Summary: summary, Link: atomLink{Rel: "alternate", Type: "text/html", Href: link},
			Updated: atomTime(at), at: at}
	}
	var out []atomEntry
	out = append(out, entry(page+"#start", fmt.Sprintf("Game %d begins: %s vs %s", g.ID, g.WhiteHandle, g.BlackHandle),
		fmt.Sprintf("%s plays %s against %s, %s.", me, colour, opp, timeControl(g.TimeControl)), page, g.Created))
	mine := rules.White
	if colour == "black" {
		mine = rules.Black
	}
	start := startOf(g.Game)
	for i, m := range moves {
		next, _ := movingAt(start, m.Ply)
		// The move that ended the game (a lion taken, no move left, bare
		// lions) has the result's entry.
		over := i == len(moves)-1 && g.Status == db.Finished && byTheBoard(g.Reason)
		if next != mine || over {
			continue
		}
		link := fmt.Sprintf("%s?ply=%d", page, m.Ply)
		out = append(out, entry(link, fmt.Sprintf("Game %d: %s played %s; %s to move", g.ID, opp, moveLabel(start, m.Ply, m.Move), me),
			fmt.Sprintf("%s played %s in game %d against %s: it is %s's move.", opp, moveLabel(start, m.Ply, m.Move), g.ID, me, me), link, m.At))
	}
	if g.Status == db.Finished {
		text := outcome(g.Game, g.WhiteHandle, g.BlackHandle)
		out = append(out, entry(page+"#result", fmt.Sprintf("Game %d is over: %s", g.ID, text), text, page, g.Updated))
	}
	return out
}

// byTheBoard reports whether a game that ended for reason r ended by its
// last move.
func byTheBoard(r rules.Reason) bool {
	return r == rules.LionCaptured || r == rules.NoLegalMove || r == rules.BareLions
}

// absolute makes a path of the pages an address under the public URL.
func (h *Handler) absolute(path string) string {
	u := *h.public
	u.Path = path
	return u.String()
}

// atomTime writes a time as RFC 3339 wants it, in UTC to the second.
func atomTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

package templates

import (
	"strings"

	"github.com/congobymail/congo/lang"
)

// Problems that come of the operator's decisions.
const (
	Banned    Problem = "banned"    // a command from a banned player
	Adjourned Problem = "adjourned" // a command about an adjourned game
)

// AdminNotice tells a player what the server's operator did that
// concerns them.
type AdminNotice struct {
	Lang   lang.Code // the player's language; "" for English
	To     string    // the player's handle
	Action string    // "ban", "unban", "adjourn", "resume" or "adjudicate"
	Game   Game      // the game, for adjourn, resume and adjudicate
}

// Admin renders an AdminNotice. A notice about a game has the game's
// subject, so that it joins the game's thread.
func Admin(n AdminNotice) (subject, body string, err error) {
	t := tongueOf(n.Lang)
	if n.Game.ID != 0 {
		return t.render("admin", n.Game, n)
	}
	if body, err = t.execute("admin", n); err != nil {
		return "", "", err
	}
	subject, err = t.raw("subject_operator", nil)
	return strings.TrimSpace(subject), body, err
}

// AdminDone tells the operator that one of their commands was carried out.
type AdminDone struct {
	Line string // the command as written
	Done string // what was done, e.g. "bob is banned"
}

func (AdminDone) template() string { return "admin_done" }

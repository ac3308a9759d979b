// Package account is the room of who a player is here: registering
// (M28), the welcome and the manual, the personal address's secret
// (newkey), and the player's settings: the language of their mails
// (M40), how they hear of moves (M18) and their vacations.
package account

import (
	"context"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/congobymail/congo/command"
	"github.com/congobymail/congo/db"
	"github.com/congobymail/congo/lang"
	"github.com/congobymail/congo/parser"
	"github.com/congobymail/congo/robot"
	"github.com/congobymail/congo/templates"
)

// SecretLen is the length of a personal address secret: 26 base32
// characters carry 130 random bits (M6).
const SecretLen = 26

// secretEncoding writes secrets in lowercase letters and digits only,
// because some mail systems change the case of local parts (M6).
var secretEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewSecret makes a new personal address secret from rand.
func NewSecret(rand io.Reader) (string, error) {
	b := make([]byte, 17) // 136 bits, of which the first 130 are used
	if _, err := io.ReadFull(rand, b); err != nil {
		return "", fmt.Errorf("make secret: %w", err)
	}
	return secretEncoding.EncodeToString(b)[:SecretLen], nil
}

// Help answers with the manual.
func Help(ctx context.Context, r *command.Request) (command.Result, error) {
	return command.Answer("help", templates.Help{Robot: r.Robot(), RobotLevel: robot.DefaultLevel,
		AnalysesPerDay: max(r.Settings().AnalysesPerDay, 0)}), nil
}

// Rules answers with the rules of the game in plain words (M25).
func Rules(ctx context.Context, r *command.Request) (command.Result, error) {
	return command.Answer("rules", templates.RulesSummary{}), nil
}

// Register registers the sender, or reminds a registered sender of their
// handle and personal address.
func Register(ctx context.Context, r *command.Request, a parser.RegisterArgs) (command.Result, error) {
	if r.Sender.ID != 0 {
		w := templates.Registered{Handle: r.Sender.Handle, Personal: r.Personal(r.Sender), Already: true,
			Confirm: !r.Sender.Confirmed, Robot: r.Robot()}
		if !strings.EqualFold(a.Handle, r.Sender.Handle) {
			w.Asked = a.Handle
			begun, err := started(ctx, r.Tx, r.Sender.ID)
			if err != nil {
				return command.Result{}, err
			}
			w.Rename = r.Sender.Confirmed && !begun
		}
		return command.Answer("register: already "+r.Sender.Handle, w), nil
	}
	if !parser.ValidHandle(a.Handle) {
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.BadHandle, Handle: a.Handle})
	}
	if err := release(ctx, r, a.Handle, 0); err != nil {
		return command.Result{}, err
	}
	if like, err := lookalike(ctx, r.Tx, a.Handle, 0); err != nil || like != "" {
		if err != nil {
			return command.Result{}, err
		}
		// The same handle, in any case, is taken, not like another.
		if !strings.EqualFold(like, a.Handle) {
			return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.HandleLooksLike, Handle: a.Handle, Detail: like})
		}
	}
	secret, err := NewSecret(r.Rand())
	if err != nil {
		return command.Result{}, err
	}
	p, err := r.Tx.AddPlayer(ctx, a.Handle, r.Mail.From, secret, r.Now)
	if errors.Is(err, db.ErrHandleTaken) {
		return command.Result{}, command.Refuse(templates.Error{Line: r.Line, Problem: templates.HandleTaken, Handle: a.Handle})
	}
	if err != nil {
		return command.Result{}, err
	}
	p.Language = string(newPlayerLang(r))
	if err := r.Tx.SetLanguage(ctx, p.ID, p.Language); err != nil {
		return command.Result{}, err
	}
	proven := r.Proves(p)
	if proven {
		// A receiving server the operator trusts vouches for the From
		// address (-trust-authserv): it is the player's.
		p.Confirmed = true
		if err := r.Tx.SetConfirmed(ctx, p.ID); err != nil {
			return command.Result{}, err
		}
	}
	res := command.Answer("register "+p.Handle, templates.Registered{Handle: p.Handle, Personal: r.Personal(p), Confirm: !proven, Robot: r.Robot()})
	res.Sender, res.Proven = &p, proven
	return res, nil
}

// newPlayerLang is the language of a player who registers with the mail
// (M40): that of its Content-Language when the server has it, else the
// server's default.
func newPlayerLang(r *command.Request) lang.Code {
	if l, ok := lang.FromContentLanguage(r.Mail.ContentLanguage); ok {
		return l
	}
	return r.Language()
}

// NewKey gives the sender a new secret; the old one stops working.
func NewKey(ctx context.Context, r *command.Request) (command.Result, error) {
	secret, err := NewSecret(r.Rand())
	if err != nil {
		return command.Result{}, err
	}
	if err := r.Tx.SetSecret(ctx, r.Sender.ID, secret); err != nil {
		return command.Result{}, err
	}
	p := r.Sender
	p.Secret = secret
	res := command.Answer("newkey", templates.NewKey{Personal: r.Personal(p)})
	res.Sender = &p
	return res, nil
}

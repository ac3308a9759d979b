package templates

import (
	"fmt"
	"testing"
	"time"

	"github.com/congobymail/congo/mailmsg"
)

// BenchmarkBoardMail renders a board mail, text and HTML, as the server
// does for every move and every "board" command.
func BenchmarkBoardMail(b *testing.B) {
	d := htmlBoard()
	for b.Loop() {
		if _, _, _, err := BoardMail(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBoardMailTaps renders the board mail to the player to move
// with their one-tap moves (M71): 35 legal moves, after a monkey's chain.
func BenchmarkBoardMailTaps(b *testing.B) {
	d, _ := tapsBoard(b)
	for b.Loop() {
		if _, _, _, err := BoardMail(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkComposeBoardMail renders and composes, as the outbox does, the
// board mail to the player to move after a monkey's chain, without and
// with the one-tap moves (M71), and reports its size as sent.
func BenchmarkComposeBoardMail(b *testing.B) {
	for _, taps := range []bool{false, true} {
		b.Run(fmt.Sprintf("taps=%v", taps), func(b *testing.B) {
			d, _ := tapsBoard(b)
			if !taps {
				d.Taps = nil
			}
			size := 0
			for b.Loop() {
				subject, text, html, err := BoardMail(d)
				if err != nil {
					b.Fatal(err)
				}
				raw, _, err := mailmsg.Compose(mailmsg.Outgoing{From: "congo@pbm.example.net", FromName: "Congo", To: "bob@example.org",
					ToName: "bob", ReplyTo: personal, Subject: subject, Text: text, HTML: html, MessageID: "game42.move4@pbm.example.net",
					InReplyTo: []string{"game42.start@pbm.example.net"}, References: []string{"game42.start@pbm.example.net"},
					Language: "en", Date: time.Date(2025, 6, 14, 10, 0, 0, 0, time.UTC)}, "pbm.example.net")
				if err != nil {
					b.Fatal(err)
				}
				size = len(raw)
			}
			b.ReportMetric(float64(size), "mail-B")
		})
	}
}

package mailmsg_test

import (
	"strings"
	"testing"
	"time"

	"github.com/congobymail/congo/mailmsg"
)

// BenchmarkComposeBoard composes a mail the size of a board mail: a text
// part of a board and a few lines, and an HTML part of a 7x7 table with
// inline styles (about 23 KB) and one em dash, as the outbox does for
// each recipient of a move.
func BenchmarkComposeBoard(b *testing.B) {
	cell := `<td style="width:40px;height:40px;padding:0;text-align:center;vertical-align:middle;border:1px solid #8c8c8c;background:#fbf8ef" class="cg-sq"><span class="cg-wr" style="display:inline-block;padding:4px;border:1px solid #4d4d4d;border-radius:16px;background:#a6a6a6;vertical-align:middle"><span class="cg-w" style="display:block;width:22px;height:22px;line-height:22px;border-radius:11px;background:#ffffff;color:#1a1a1a;text-align:center;font-family:Georgia,'Times New Roman',Times,serif;font-weight:bold;font-size:17px">Z</span></span></td>` + "\n"
	html := "<!DOCTYPE html>\n<html><head><style>.cg-sq { color: #fff }</style></head><body>\n<p>alice: c3xe5xc7 — the monkey captured the pawns on d4 and d6.</p>\n<table>\n" +
		strings.Repeat("<tr>\n"+strings.Repeat(cell, 7)+"</tr>\n", 7) + "</table>\n</body></html>\n"
	out := mailmsg.Outgoing{
		From: "congo@pbm.example.net", FromName: "Congo", To: "alice@example.org", ToName: "alice",
		ReplyTo: "congo+k3x9q2@pbm.example.net", Subject: "Congo game 42: alice vs bob",
		Text: "Bob played b6-b5.\n\n" + board, HTML: html, MessageID: "game42.move4@pbm.example.net",
		InReplyTo: []string{"game42.start@pbm.example.net"}, References: []string{"game42.start@pbm.example.net"},
		Language: "en", Date: time.Date(2025, 6, 14, 10, 0, 0, 0, time.UTC),
	}
	b.SetBytes(int64(len(out.Text) + len(out.HTML)))
	for b.Loop() {
		if _, _, err := mailmsg.Compose(out, "pbm.example.net"); err != nil {
			b.Fatal(err)
		}
	}
}

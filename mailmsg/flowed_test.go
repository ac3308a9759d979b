package mailmsg_test

import (
	"strings"
	"testing"

	"github.com/congobymail/congo/mailmsg"
)

// The mails below are shaped as these clients send a reply in
// format=flowed: Thunderbird (7bit, no delsp, lines wrapped before 72
// characters, quotes flowed too); Apple Mail (delsp=yes, the parameters
// folded on lines of their own, quoted-printable when the text is not
// ASCII, so that its soft spaces come as "=20"; a break between words
// keeps their space and adds its own, a break in Japanese adds only its
// own); mutt (8bit, Content-Disposition inline, "From " space-stuffed, a
// signature).
func TestParseFlowed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		header string // the part's Content-* fields, CRLF-ended
		body   string // LF-ended; written with CRLF
		want   string
	}{
		{
			name:   "Thunderbird",
			header: "Content-Type: text/plain; charset=UTF-8; format=flowed\r\nContent-Transfer-Encoding: 7bit\r\n",
			body: "move congo 42 b2-b3 and then some more words that make the line long \n" +
				"enough for Thunderbird to wrap it, twice even, as it does at seventy \n" +
				"two characters.\n" +
				"\n" +
				"On 14/06/2025 09:00, Congo wrote:\n" +
				"> Bob played b6-b5 and this quoted paragraph was wrapped by the first \n" +
				"> mail's client too.\n" +
				">\n" +
				">> An older quote, wrapped as well, \n" +
				">> on two lines.\n",
			want: "move congo 42 b2-b3 and then some more words that make the line long " +
				"enough for Thunderbird to wrap it, twice even, as it does at seventy " +
				"two characters.\n" +
				"\n" +
				"On 14/06/2025 09:00, Congo wrote:\n" +
				"> Bob played b6-b5 and this quoted paragraph was wrapped by the first " +
				"mail's client too.\n" +
				">\n" +
				">> An older quote, wrapped as well, on two lines.\n",
		},
		{
			name: "Apple Mail",
			header: "Content-Type: text/plain;\r\n\tcharset=utf-8;\r\n\tdelsp=yes;\r\n\tformat=flowed\r\n" +
				"Content-Transfer-Encoding: quoted-printable\r\n",
			body: "move congo 42 b2-b3 and then some more words, Gr=C3=BC=C3=9Fe an =\n" +
				"alle, that Apple Mail breaks after the space between two words and =20\n" +
				"a space of its own.\n" +
				"=E6=AC=A1=E3=81=AF=E3=81=93=E3=81=AE=E6=89=8B=E3=81=A7=E3=81=99=20\n" +
				"=E3=80=82\n" +
				"\n" +
				"> On 14 Jun 2025, at 09:00, Congo <congo@pbm.example.net> wrote:\n" +
				">=20\n" +
				"> Bob played b6-b5 and the quoted line was wrapped by its sender, =20\n" +
				"> so it is joined again.\n",
			want: "move congo 42 b2-b3 and then some more words, Grüße an " +
				"alle, that Apple Mail breaks after the space between two words and " +
				"a space of its own.\n" +
				"次はこの手です。\n" +
				"\n" +
				"> On 14 Jun 2025, at 09:00, Congo <congo@pbm.example.net> wrote:\n" +
				">\n" +
				"> Bob played b6-b5 and the quoted line was wrapped by its sender, " +
				"so it is joined again.\n",
		},
		{
			name: "mutt",
			header: "Content-Type: text/plain; charset=us-ascii; format=flowed\r\n" +
				"Content-Disposition: inline\r\nContent-Transfer-Encoding: 8bit\r\n",
			body: "move congo 42 b2-b3 and then some more words that mutt wraps for me \n" +
				"at seventy-two.\n" +
				" From now on I play faster.\n" +
				"  indented by two\n" +
				"\n" +
				"* Congo <congo@pbm.example.net> [2025-06-14 09:00]:\n" +
				">Your move in game 42. This line is quoted and long enough to be \n" +
				">wrapped.\n" +
				"\n" +
				"-- \n" +
				"Alice, who signs \n" +
				"her mail\n",
			want: "move congo 42 b2-b3 and then some more words that mutt wraps for me " +
				"at seventy-two.\n" +
				"From now on I play faster.\n" +
				" indented by two\n" +
				"\n" +
				"* Congo <congo@pbm.example.net> [2025-06-14 09:00]:\n" +
				"> Your move in game 42. This line is quoted and long enough to be " +
				"wrapped.\n" +
				"\n" +
				"-- \n" +
				"Alice, who signs her mail\n",
		},
		{
			name:   "quote depths never join",
			header: "Content-Type: text/plain; format=flowed\r\n",
			body:   "> quoted and soft \n>> deeper and soft \nnot quoted\n",
			want:   "> quoted and soft \n>> deeper and soft \nnot quoted\n",
		},
		{
			name:   "no line joins the signature separator",
			header: "Content-Type: text/plain; format=flowed; delsp=yes\r\n",
			body:   "b2-b3 \n-- \nAlice  \nLiddell\n",
			want:   "b2-b3\n-- \nAlice Liddell\n",
		},
		{
			name:   "a soft last line",
			header: "Content-Type: text/plain; format=FLOWED\r\n",
			body:   "b2-b3 \nresign ",
			want:   "b2-b3 resign ",
		},
		{
			name:   "not flowed: soft spaces stay line ends",
			header: "Content-Type: text/plain; charset=utf-8\r\n",
			body:   "move congo 42 b2-b3 and \nthen some more words\n",
			want:   "move congo 42 b2-b3 and \nthen some more words\n",
		},
		{
			name:   "flowed in HTML means nothing",
			header: "Content-Type: text/html; format=flowed\r\n",
			body:   "<p>b2-b3 \nresign</p>",
			want:   "b2-b3 resign\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := "From: alice@example.org\r\nTo: congo@pbm.example.net\r\nSubject: Re: Congo game 42\r\n" +
				"MIME-Version: 1.0\r\n" + tt.header + "\r\n" + strings.ReplaceAll(tt.body, "\n", "\r\n")
			in, err := mailmsg.Parse([]byte(raw))
			if err != nil {
				t.Errorf("Parse(%s) error = %v", tt.name, err)
			}
			if in.Text != tt.want {
				t.Errorf("Parse(%s).Text = %q, want %q", tt.name, in.Text, tt.want)
			}
		})
	}
}

// A flowed part inside a multipart/alternative, as Thunderbird sends
// when it composes HTML: the text part is the one read, unwrapped.
func TestParseFlowedAlternative(t *testing.T) {
	t.Parallel()
	raw := "From: alice@example.org\r\nSubject: Re: Congo game 42\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/alternative; boundary=\"------------aBcD\"\r\n\r\n" +
		"This is a multi-part message in MIME format.\r\n" +
		"--------------aBcD\r\n" +
		"Content-Type: text/plain; charset=UTF-8; format=flowed\r\n" +
		"Content-Transfer-Encoding: 7bit\r\n\r\n" +
		"move congo 42 b2-b3 and then some more words \r\nin one paragraph\r\n\r\n" +
		"--------------aBcD\r\n" +
		"Content-Type: text/html; charset=UTF-8\r\n\r\n" +
		"<p>move congo 42 b2-b3 and then some more words in one paragraph</p>\r\n" +
		"--------------aBcD--\r\n"
	in, _ := mailmsg.Parse([]byte(raw))
	want := "move congo 42 b2-b3 and then some more words in one paragraph\n"
	if in.Text != want {
		t.Errorf("Parse(Thunderbird HTML and flowed text).Text = %q, want %q", in.Text, want)
	}
}

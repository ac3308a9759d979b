package mailmsg

import "testing"

func TestHTMLToText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, html, want string
	}{
		{"empty", "", ""},
		{"plain words", "move congo 42 b2-b3", "move congo 42 b2-b3\n"},
		{"white space collapses", "  move\n\tcongo   42  ", "move congo 42\n"},
		{"entities", "a &amp; b &lt;c&gt; &eacute;&#233;&#xE9;", "a & b <c> ééé\n"},
		{"no-break spaces are spaces", "move&nbsp;congo&nbsp;&nbsp;42", "move congo 42\n"},
		{"inline elements join words", "b<b>2</b>-<i>b3</i>", "b2-b3\n"},
		{"br ends a line", "one<br>two<br/>three", "one\ntwo\nthree\n"},
		{"two br leave a blank line", "one<br><br>two", "one\n\ntwo\n"},
		{"divs are lines", "<div>one</div><div>two</div>", "one\ntwo\n"},
		{"paragraphs are separated", "<p>one</p><p>two</p>", "one\n\ntwo\n"},
		{"headings", "<h1>Title</h1>text", "Title\n\ntext\n"},
		{"script and style dropped", "<style>p{}</style><script>x()</script>kept", "kept\n"},
		{"head dropped", "<html><head><title>t</title></head><body>body</body></html>", "body\n"},
		{"comments dropped", "a<!-- hidden -->b", "ab\n"},
		{"blockquote prefixed", "said:<blockquote>line one<br>line two</blockquote>after", "said:\n\n> line one\n> line two\n\nafter\n"},
		{"nested blockquotes", "<blockquote>a<blockquote>b</blockquote>c</blockquote>", "> a\n>\n> > b\n>\n> c\n"},
		{"blockquote paragraphs", "<blockquote><p>a</p><p>b</p></blockquote>", "> a\n>\n> b\n"},
		{"pre keeps lines", "<pre>  a  b\n c\n</pre>", "  a  b\n c\n"},
		{"pre in blockquote", "<blockquote><pre>x\ny</pre></blockquote>", "> x\n> y\n"},
		{"list items", "<ul><li>one</li><li>two</li></ul>", "- one\n- two\n"},
		{"table cells", "<table><tr><td>a</td><td>b</td></tr><tr><th>c</th><td>d</td></tr></table>", "a b\nc d\n"},
		{"images dropped", `x<img src="a.png" alt="pic">y`, "xy\n"},
		{"unclosed tags", "<div><p>one<p>two", "one\n\ntwo\n"},
		{"trailing spaces trimmed", "<div>a </div><div> b</div>", "a\nb\n"},
	}
	for _, tt := range tests {
		if got := htmlToText(tt.html); got != tt.want {
			t.Errorf("%s: htmlToText(%q) = %q, want %q", tt.name, tt.html, got, tt.want)
		}
	}
}

func TestHTMLToTextDeepNesting(t *testing.T) {
	t.Parallel()
	// A hostile mail of nested elements: the text beyond maxHTMLDepth is
	// dropped, and nothing blows up.
	var html string
	for range 10 * maxHTMLDepth {
		html += "<span>"
	}
	html += "deep"
	if got := htmlToText(html); got != "" {
		t.Errorf("htmlToText(%d nested spans) = %q, want %q", 10*maxHTMLDepth, got, "")
	}
}

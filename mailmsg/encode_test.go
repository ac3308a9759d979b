package mailmsg

import "testing"

// TestRawTextNonASCII: a character that is not ASCII counts inside a
// <style> or <script> element, whatever the case of its tags, up to its
// end tag (or the end of the text), and nowhere else.
func TestRawTextNonASCII(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		html string
		want bool
	}{
		{"<p>é</p>", false},
		{"<style>p{}</style><p>—</p>", false},
		{"<style>p::before{content:\"—\"}</style>", true},
		{"<STYLE type=\"text/css\">p::before{content:\"—\"}</Style>", true},
		{"<style>a<b</style>é", false},
		{"<style>unended é", true},
		{"<script>x='ü'</script>", true},
		{"<styles>é</styles>", true}, // read as a style element's start, on the safe side
		{"<p>é</p><style>p{}</style>", false},
		{"", false},
	} {
		if got := rawTextNonASCII(tc.html); got != tc.want {
			t.Errorf("rawTextNonASCII(%q) = %v, want %v", tc.html, got, tc.want)
		}
	}
}

package rules

import "testing"

func TestDiagram(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "3l3/7/3pp2/c1M4/7/7/2L4 w 1")
	for _, c := range []struct {
		side Color
		want string
	}{
		{White, "" +
			"   a b c d e f g\n" +
			"7  . .|. l .|. .  7\n" +
			"6  . .|. . .|. .  6\n" +
			"5  . .|. p p|. .  5\n" +
			"4  c ~ M ~ ~ ~ ~  4  river\n" +
			"3  . .|. . .|. .  3\n" +
			"2  . .|. . .|. .  2\n" +
			"1  . .|L . .|. .  1\n" +
			"   a b c d e f g\n"},
		{Black, "" +
			"   g f e d c b a\n" +
			"1  . .|. . L|. .  1\n" +
			"2  . .|. . .|. .  2\n" +
			"3  . .|. . .|. .  3\n" +
			"4  ~ ~ ~ ~ M ~ c  4  river\n" +
			"5  . .|p p .|. .  5\n" +
			"6  . .|. . .|. .  6\n" +
			"7  . .|. l .|. .  7\n" +
			"   g f e d c b a\n"},
	} {
		if got := p.Diagram(c.side); got != c.want {
			t.Errorf("Diagram(%v) of %q:\n%s\nwant:\n%s", c.side, p, got, c.want)
		}
	}
}

// Package lang names the languages the server's mails are written in
// (M40): their codes, the words players write for them, and their plural
// rules.
package lang

import (
	"slices"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// Code is a language, by its ISO 639-1 code. The zero value means none:
// the server's default.
type Code string

// The languages of the server's mails. English is the source of every
// wording; each other language is one file, templates/lang/<code>.tmpl.
const (
	English  Code = "en"
	Japanese Code = "ja"
	Czech    Code = "cs"
)

// All are the languages, English first.
var All = []Code{English, Japanese, Czech}

// aliases are the words that name each language besides its code, as
// players write them (M40): the language's English name, its own, and
// its names in the other languages (and the Czech ones without their
// accents, as a keyboard without them writes them), lowercase, after
// NFKC.
var aliases = map[string]Code{
	"english":    English,
	"anglicky":   English,
	"angličtina": English,
	"anglictina": English,
	"英語":         English,
	"japanese":   Japanese,
	"日本語":        Japanese,
	"にほんご":       Japanese,
	"nihongo":    Japanese,
	"japonsky":   Japanese,
	"japonština": Japanese,
	"japonstina": Japanese,
	"czech":      Czech,
	"čeština":    Czech,
	"cestina":    Czech,
	"česky":      Czech,
	"cesky":      Czech,
	"チェコ語":       Czech,
}

// Valid reports whether c is one of All.
func (c Code) Valid() bool { return slices.Contains(All, c) }

// Or returns c, or def when c is none (or no language of All).
func (c Code) Or(def Code) Code {
	if c.Valid() {
		return c
	}
	return def
}

// Parse reads the word a player names a language with: its code ("ja"),
// a language tag whose language is one of All ("ja-JP", "cs_CZ"), or an
// alias ("japanese", "日本語", "čeština", "česky"), in any case, after
// Unicode NFKC (so full-width "ｊａ" is "ja").
func Parse(word string) (Code, bool) {
	w := strings.ToLower(strings.TrimSpace(norm.NFKC.String(word)))
	if c, ok := aliases[w]; ok {
		return c, true
	}
	return fromTag(strings.ReplaceAll(w, "_", "-"))
}

// Name reads a word that names a language (M59), such as "English",
// "日本語" or "česky", in any case, after Unicode NFKC: one of the
// aliases Parse reads, never a code or a tag, which are also words of
// other kinds ("ja" is "I" in Czech).
func Name(word string) (Code, bool) {
	c, ok := aliases[strings.ToLower(strings.TrimSpace(norm.NFKC.String(word)))]
	return c, ok
}

// fromTag reads a BCP 47 language tag ("cs", "ja-JP", "en-GB") as one of
// All, by its language alone.
func fromTag(s string) (Code, bool) {
	if s == "" || strings.ContainsAny(s, " \t") {
		return "", false
	}
	t, err := language.Parse(s)
	if err != nil {
		return "", false
	}
	base, conf := t.Base()
	if conf != language.Exact {
		return "", false
	}
	if c := Code(base.String()); c.Valid() {
		return c, true
	}
	return "", false
}

// FromContentLanguage reads a Content-Language header (RFC 3282: one or
// more language tags separated by commas, such as "ja-JP" or "cs, en"):
// the first of its tags whose language is one of All.
func FromContentLanguage(v string) (Code, bool) {
	for _, part := range strings.Split(v, ",") {
		if c, ok := fromTag(strings.TrimSpace(part)); ok {
			return c, true
		}
	}
	return "", false
}

// Tag is c as a language tag of golang.org/x/text.
func (c Code) Tag() language.Tag { return language.Make(string(c.Or(English))) }

// forms are the plural forms each language's wordings give, in this
// order, for whole numbers (CLDR's cardinal rules: Czech's "many" is for
// fractions only).
var forms = map[Code][]plural.Form{
	English:  {plural.One, plural.Other},
	Japanese: {plural.Other},
	Czech:    {plural.One, plural.Few, plural.Other},
}

// Forms are the plural forms of c for whole numbers, in the order a
// wording writes them: English "1 day" and "2 days" (one, other), Czech
// "1 den", "2 dny", "5 dní" (one, few, other), Japanese one form.
func (c Code) Forms() []plural.Form { return forms[c.Or(English)] }

// Form returns which of c's Forms the whole number n takes, as an index
// into them, by CLDR's plural rules.
func (c Code) Form(n int) int {
	if n < 0 {
		n = -n
	}
	f := plural.Cardinal.MatchPlural(c.Tag(), n, 0, 0, 0, 0)
	if i := slices.Index(c.Forms(), f); i >= 0 {
		return i
	}
	return len(c.Forms()) - 1 // "other"
}

package config

import (
	"fmt"
	"reflect"
	"strings"
	"time"
)

// exampleHead is the start of the example configuration file.
const exampleHead = `# congod configuration file (TOML). Use it with:
#
#     congod -config /etc/congod.conf
#
# Every key is also a flag (-imap) and an environment variable
# (CONGO_IMAP). Where a setting is given more than once, a flag on the
# command line wins over the environment, which wins over this file, which
# wins over the default. Check a configuration, and log in to the mail
# servers and write to the database with it (no mail is sent), with:
#
#     congod -config /etc/congod.conf -check-config
#
# Each key below is commented out and shows its default; a key marked
# "required" has no default and shows an example instead. Strings are
# quoted, durations too ("90s", "5m", "1h"); numbers, true and false are
# not.
#
# This file may hold passwords: keep it readable by root only
# (chmod 600), or put the passwords in the *-password-file files.
#
# This file is made from the settings' own words (package config): change
# them there, and run go test ./config -update.
`

// ExampleFile is the example configuration file: every key of the file,
// commented out, with its words and its default (or, for a required
// setting, an example), by group.
func ExampleFile() string {
	var b strings.Builder
	b.WriteString(exampleHead)
	d := Defaults()
	group := ""
	for _, f := range fields {
		if f.noFile {
			continue
		}
		if f.group != group {
			group = f.group
			fmt.Fprintf(&b, "\n# --- %s %s\n", group, strings.Repeat("-", max(3, 72-len(group))))
		}
		b.WriteString("\n")
		for _, l := range wrap(f.doc, 70) {
			b.WriteString("# " + l + "\n")
		}
		v := f.example
		if v == "" {
			v = tomlValue(reflect.ValueOf(d).Field(f.index).Interface())
		} else {
			v = fmt.Sprintf("%q", v)
		}
		fmt.Fprintf(&b, "#%s = %s\n", f.key, v)
	}
	return b.String()
}

// MarkdownTable is the table of every setting for the docs: by group, a
// row a setting with its flag, default and words.
func MarkdownTable() string {
	var b strings.Builder
	d := Defaults()
	group := ""
	for _, f := range fields {
		if f.group != group {
			if group != "" {
				b.WriteString("\n")
			}
			group = f.group
			fmt.Fprintf(&b, "**%s**\n\n| flag | default | meaning |\n|---|---|---|\n", group)
		}
		flag := "-" + f.key
		if f.arg != "" {
			flag += " " + f.arg
		}
		def := f.shown
		switch {
		case def != "":
		case f.example != "":
			def = "(required)"
		default:
			def = "`" + shown(reflect.ValueOf(d).Field(f.index).Interface()) + "`"
			if def == "``" {
				def = "none"
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", flag, cell(def), cell(f.doc))
	}
	return b.String()
}

// cell escapes the bars of s for a cell of a markdown table.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// shown writes v as the docs show a default: as it is written on the
// command line.
func shown(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case time.Duration:
		return shortDuration(v)
	}
	return fmt.Sprint(v)
}

// tomlValue writes v as the file takes it.
func tomlValue(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("%q", v)
	case time.Duration:
		return fmt.Sprintf("%q", shortDuration(v))
	}
	return fmt.Sprint(v)
}

// shortDuration writes d as people do: "1m", not "1m0s".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// wrap cuts s into lines of at most width bytes, at spaces, but not
// inside a `code span` (a longer one stands on a line of its own).
func wrap(s string, width int) []string {
	var words []string
	for _, w := range strings.Fields(s) {
		if n := len(words); n > 0 && strings.Count(words[n-1], "`")%2 == 1 {
			words[n-1] += " " + w
			continue
		}
		words = append(words, w)
	}
	var lines []string
	line := ""
	for _, w := range words {
		switch {
		case line == "":
			line = w
		case len(line)+1+len(w) > width:
			lines = append(lines, line)
			line = w
		default:
			line += " " + w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

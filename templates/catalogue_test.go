package templates

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"text/template"
	"text/template/parse"
	"unicode"

	"github.com/congobymail/congo/lang"
)

// sameInEveryLanguage are English templates with words that no language
// translates: "Position:" stays as it is, for tools (M3, M40).
var sameInEveryLanguage = map[string]bool{"diagram": true}

// declined are templates whose data a language may write in its own way:
// Czech declines a piece's kind, which English writes as it is, by
// testing it and the role of the pieces in the sentence.
var declined = map[string]bool{"piece_group": true}

// everyLanguage are English templates without words of their own that
// every language writes in its own way all the same: a piece's name (the
// data is the English one), decimals and big numbers.
var everyLanguage = map[string]bool{"piece": true, "decimal": true, "number": true}

// TestCatalogues is the test that says what a language's file lacks
// (M42): for each language but English, every template of the English
// files with words in it must be in the language's file, with the same
// placeholders (the data it writes); the file must have no template that
// English does not, but its helpers ("_..."); and it must translate
// every phrase (a format string of the parser, the rules, the game or
// the server, which the Go code writes in English), with the same verbs.
func TestCatalogues(t *testing.T) {
	t.Parallel()
	english := definitions(t, "*.tmpl")
	formats := phraseFormats(t)
	for _, c := range lang.All {
		if c == lang.English {
			continue
		}
		t.Run(string(c), func(t *testing.T) {
			file := "lang/" + string(c) + ".tmpl"
			for _, p := range catalogueProblems(file, english, definitions(t, file), formats) {
				t.Error(p)
			}
		})
	}
}

// catalogueProblems compares the templates a language's file defines
// (own) with the English ones and with the phrases of the Go code
// (formats, each with where it is), as TestCatalogues says, and returns
// what is wrong, a sentence each.
func catalogueProblems(file string, english, own map[string]*parse.Tree, formats map[string]string) []string {
	var out []string
	errorf := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	for name, tree := range english {
		if !hasWords(tree.Root) && !everyLanguage[name] || sameInEveryLanguage[name] {
			if _, ok := own[name]; ok && sameInEveryLanguage[name] {
				errorf("%s defines %q, which stays as English has it in every language", file, name)
			}
			continue
		}
		mine, ok := own[name]
		if !ok {
			errorf("%s lacks %q, which English has (%s)", file, name, tree.ParseName)
			continue
		}
		want, got := placeholders(tree.Root, english), placeholders(mine.Root, own)
		if !slices.Equal(want, got) && !declined[name] {
			errorf("%s: %q writes %v, English writes %v", file, name, got, want)
		}
	}
	for name, tree := range own {
		switch {
		case strings.HasPrefix(name, "_"):
		case strings.Contains(name, " "):
			want, ok := formats[name]
			if !ok {
				errorf("%s translates the phrase %q, which no Go code writes any more", file, name)
				continue
			}
			text := textOf(tree.Root)
			if got := verbs(text); !slices.Equal(got, verbs(name)) {
				errorf("%s: phrase %q (%s) has the verbs %v, its translation %q has %v", file, name, want, verbs(name), text, got)
			}
		case english[name] == nil:
			errorf("%s defines %q, which English does not", file, name)
		}
	}
	for format, where := range formats {
		if _, ok := own[format]; !ok {
			errorf("%s lacks the phrase %q (%s)", file, format, where)
		}
	}
	sort.Strings(out)
	return out
}

// TestCatalogueProblems: the comparison of TestCatalogues finds each
// thing a language's file can get wrong, and nothing in a file that
// gets all of it right.
func TestCatalogueProblems(t *testing.T) {
	t.Parallel()
	parseSet := func(text string) map[string]*parse.Tree {
		t.Helper()
		set, err := template.New("").Funcs(tongueOf(lang.English).funcs()).Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]*parse.Tree{}
		for _, tmpl := range set.Templates() {
			if tmpl.Tree != nil && tmpl.Name() != "" {
				out[tmpl.Name()] = tmpl.Tree
			}
		}
		return out
	}
	english := parseSet(`{{define "hello"}}Hello, {{.Handle}}, game {{.ID}}.{{end}}` +
		`{{define "days"}}{{plural . "day" "days"}}{{end}}` +
		`{{define "rank"}}{{.}}{{end}}`)
	formats := map[string]string{"there is no piece on %s": "rules/move.go:1"}
	good := `{{define "hello"}}{{template "_greet" .}}, partie {{.ID}}.{{end}}` +
		`{{define "_greet"}}Ahoj {{.Handle}}{{end}}` +
		`{{define "days"}}{{plural . "den" "dny" "dní"}}{{end}}` +
		`{{define "there is no piece on %s"}}na %s nestojí žádný kámen{{end}}`
	tests := []struct {
		name, file string
		want       []string // words each problem says, in the order of the sorted problems
	}{
		{"all right", good, nil},
		{"lacks a message", `{{define "hello"}}Ahoj {{.Handle}}, partie {{.ID}}.{{end}}` +
			`{{define "there is no piece on %s"}}na %s nestojí žádný kámen{{end}}`,
			[]string{`lacks "days"`}},
		{"a message English no longer has", good + `{{define "goodbye"}}Nashle{{end}}`,
			[]string{`defines "goodbye", which English does not`}},
		{"placeholders differ", `{{define "hello"}}Ahoj {{.Handle}}.{{end}}` +
			`{{define "days"}}{{plural . "den" "dny" "dní"}}{{end}}` +
			`{{define "there is no piece on %s"}}na %s nestojí žádný kámen{{end}}`,
			[]string{`"hello" writes [.Handle], English writes [.Handle .ID]`}},
		{"lacks a phrase", `{{define "hello"}}Ahoj {{.Handle}}, partie {{.ID}}.{{end}}` +
			`{{define "days"}}{{plural . "den" "dny" "dní"}}{{end}}`,
			[]string{`lacks the phrase "there is no piece on %s"`}},
		{"a phrase's verbs differ", `{{define "hello"}}Ahoj {{.Handle}}, partie {{.ID}}.{{end}}` +
			`{{define "days"}}{{plural . "den" "dny" "dní"}}{{end}}` +
			`{{define "there is no piece on %s"}}na poli nestojí žádný kámen{{end}}`,
			[]string{`has the verbs [1s], its translation "na poli nestojí žádný kámen" has []`}},
		{"a phrase no Go code writes", good + `{{define "the lion may not leave %s"}}lev neopustí %s{{end}}`,
			[]string{`translates the phrase "the lion may not leave %s", which no Go code writes any more`}},
	}
	for _, tt := range tests {
		got := catalogueProblems("lang/xx.tmpl", english, parseSet(tt.file), formats)
		if len(got) != len(tt.want) {
			t.Errorf("%s: catalogueProblems = %q, want %d problems", tt.name, got, len(tt.want))
			continue
		}
		for i, w := range tt.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: problem %q does not say %q", tt.name, got[i], w)
			}
		}
	}
}

// definitions parses the templates of the files matching pattern on their
// own, each file apart, and returns them by name.
func definitions(t *testing.T, pattern string) map[string]*parse.Tree {
	t.Helper()
	names, err := filepath.Glob(pattern)
	if err != nil || len(names) == 0 {
		t.Fatalf("no files %s: %v", pattern, err)
	}
	out := map[string]*parse.Tree{}
	for _, name := range names {
		set, err := template.New("").Funcs(tongueOf(lang.English).funcs()).ParseFiles(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, tmpl := range set.Templates() {
			if tmpl.Tree == nil || tmpl.Name() == filepath.Base(name) || tmpl.Name() == "" {
				continue
			}
			if _, ok := out[tmpl.Name()]; ok {
				t.Errorf("%s defines %q twice", pattern, tmpl.Name())
			}
			out[tmpl.Name()] = tmpl.Tree
		}
	}
	return out
}

// hasWords reports whether a template has letters in its text, or in the
// words it gives plural, form, printf or pad: words to translate.
func hasWords(n parse.Node) bool {
	found := false
	letters := func(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }
	walk(n, func(n parse.Node) {
		switch n := n.(type) {
		case *parse.TextNode:
			found = found || letters(string(n.Text))
		case *parse.ActionNode:
			for _, c := range n.Pipe.Cmds {
				id, ok := c.Args[0].(*parse.IdentifierNode)
				if !ok || !slices.Contains([]string{"plural", "form", "printf", "pad"}, id.Ident) {
					continue
				}
				words := c.Args[1:]
				if id.Ident == "printf" {
					words = c.Args[2:] // after the format
				}
				for _, a := range words {
					if s, ok := a.(*parse.StringNode); ok && letters(s.Text) {
						found = true
					}
				}
			}
		}
	})
	return found
}

// textOf is the text of a template without actions: a phrase's format.
func textOf(n parse.Node) string {
	var b strings.Builder
	walk(n, func(n parse.Node) {
		if tn, ok := n.(*parse.TextNode); ok {
			b.Write(tn.Text)
		}
	})
	return b.String()
}

// placeholders are the data a template writes: the fields (".Game.ID",
// "$.Round") in its actions, as arguments of functions too, and the
// templates it calls; not those it only tests in if, with and range. A
// language's helper ("_...") called with the template's own data counts
// as the template itself, found in set.
func placeholders(n parse.Node, set map[string]*parse.Tree) []string {
	seen := map[string]bool{}
	var visit func(n parse.Node)
	args := func(p *parse.PipeNode) {
		if p == nil {
			return
		}
		for _, c := range p.Cmds {
			for _, a := range c.Args {
				switch a := a.(type) {
				case *parse.FieldNode:
					seen["."+strings.Join(a.Ident, ".")] = true
				case *parse.VariableNode:
					if a.Ident[0] == "$" && len(a.Ident) > 1 {
						seen[strings.Join(a.Ident, ".")] = true
					}
				case *parse.ChainNode:
					if f, ok := a.Node.(*parse.FieldNode); ok {
						seen["."+strings.Join(f.Ident, ".")+"."+strings.Join(a.Field, ".")] = true
					}
				case *parse.PipeNode:
					visit(a)
				}
			}
		}
	}
	visit = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.ActionNode:
			if len(n.Pipe.Decl) == 0 { // {{$x := ...}} writes nothing
				args(n.Pipe)
			}
		case *parse.PipeNode:
			args(n)
		case *parse.TemplateNode:
			if !strings.HasPrefix(n.Name, "_") {
				seen["template "+n.Name] = true
			} else if h := set[n.Name]; h != nil && n.Pipe != nil && n.Pipe.String() == "." {
				for _, p := range placeholders(h.Root, set) {
					seen[p] = true
				}
			}
		}
	}
	walk(n, visit)
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// walk calls f on n and every node below it.
func walk(n parse.Node, f func(parse.Node)) {
	if n == nil || fmt.Sprint(n) == "<nil>" {
		return
	}
	f(n)
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			walk(c, f)
		}
	case *parse.IfNode:
		walk(n.List, f)
		if n.ElseList != nil {
			walk(n.ElseList, f)
		}
	case *parse.RangeNode:
		walk(n.List, f)
		if n.ElseList != nil {
			walk(n.ElseList, f)
		}
	case *parse.WithNode:
		walk(n.List, f)
		if n.ElseList != nil {
			walk(n.ElseList, f)
		}
	}
}

// verb is one verb of a format string: %s, %d, %[2]q, ... with the
// argument it takes.
var verb = regexp.MustCompile(`%(?:\[(\d+)\])?[-+# 0]*\d*(?:\.\d+)?([a-zA-Z%])`)

// verbs lists a format's verbs with their arguments, "1s" for the first
// argument as %s, sorted, %% left out.
func verbs(format string) []string {
	var out []string
	next := 1
	for _, m := range verb.FindAllStringSubmatch(format, -1) {
		if m[2] == "%" {
			continue
		}
		n := next
		if m[1] != "" {
			n, _ = strconv.Atoi(m[1])
		}
		next = n + 1
		out = append(out, fmt.Sprintf("%d%s", n, m[2]))
	}
	sort.Strings(out)
	return out
}

// phraseSources are the Go files whose phrases reach mails: the parser's
// reasons, the rules' explanation of a move that is not legal, the
// game's refusals, the operator's errors, the reasons a mail was cut.
var phraseSources = []string{"../parser/*.go", "../rules/move.go", "../rules/setup.go", "../game/*.go", "../operator/*.go", "../mailmsg/walk.go"}

// phraseFormats finds, in phraseSources, every format string given to a
// function whose last parameters are (format string, args ...any): by
// the name of a function or method of the package, or of a function
// literal given a name in the same function. A format that is not a
// constant (a literal, or literals and constants joined by +) fails the
// test, but one passed on from such a function's own format. It returns
// them with where each is.
func phraseFormats(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, pattern := range phraseSources {
		files, err := filepath.Glob(pattern)
		if err != nil || len(files) == 0 {
			t.Fatalf("no files %s: %v", pattern, err)
		}
		fset := token.NewFileSet()
		var parsed []*ast.File
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			parsed = append(parsed, af)
		}
		consts := stringConsts(parsed)
		global := map[string]int{} // function and method names: the index of format
		for _, af := range parsed {
			for _, d := range af.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if i, ok := formatParam(fd.Type); ok {
						global[fd.Name.Name] = i
					}
				}
			}
		}
		for _, af := range parsed {
			for _, d := range af.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				local := map[string]int{}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 {
						if fl, ok := as.Rhs[0].(*ast.FuncLit); ok {
							if i, ok := formatParam(fl.Type); ok {
								local[as.Lhs[0].(*ast.Ident).Name] = i
							}
						}
					}
					return true
				})
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					var name string
					switch f := call.Fun.(type) {
					case *ast.Ident:
						name = f.Name
					case *ast.SelectorExpr:
						if x, ok := f.X.(*ast.Ident); ok && (x.Name == "fmt" || x.Name == "errors") {
							return true
						}
						name = f.Sel.Name
					}
					i, ok := local[name]
					if !ok {
						i, ok = global[name]
					}
					if !ok || len(call.Args) <= i {
						return true
					}
					where := fset.Position(call.Pos()).String()
					s, ok := constString(call.Args[i], consts)
					switch {
					case ok:
						out[s] = where
					case forwards(call.Args[i]):
					default:
						t.Errorf("%s: the format given to %s is no constant: phrases must be, so that they can be translated", where, name)
					}
					return true
				})
			}
		}
	}
	if len(out) < 50 {
		t.Fatalf("found %d phrases in %v, want the parser's, the rules' and the others'", len(out), phraseSources)
	}
	return out
}

// formatParam returns the index of the parameter format of a function
// whose last parameters are (format string, args ...any).
func formatParam(ft *ast.FuncType) (int, bool) {
	var names []string
	var types []string
	for _, f := range ft.Params.List {
		typ := fmt.Sprint(f.Type)
		if e, ok := f.Type.(*ast.Ellipsis); ok {
			typ = "..." + fmt.Sprint(e.Elt)
		}
		if ident, ok := f.Type.(*ast.Ident); ok {
			typ = ident.Name
		}
		for _, n := range f.Names {
			names = append(names, n.Name)
			types = append(types, typ)
		}
	}
	n := len(names)
	if n < 2 || names[n-2] != "format" || types[n-2] != "string" || types[n-1] != "...any" {
		return 0, false
	}
	return n - 2, true
}

// stringConsts are the string constants of the files, by name.
func stringConsts(files []*ast.File) map[string]string {
	out := map[string]string{}
	for range 2 { // constants made of constants declared after them
		for _, af := range files {
			ast.Inspect(af, func(n ast.Node) bool {
				gd, ok := n.(*ast.GenDecl)
				if !ok || gd.Tok != token.CONST {
					return true
				}
				for _, s := range gd.Specs {
					vs := s.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if i < len(vs.Values) {
							if v, ok := constString(vs.Values[i], out); ok {
								out[name.Name] = v
							}
						}
					}
				}
				return true
			})
		}
	}
	return out
}

// constString is the value of a constant string expression.
func constString(e ast.Expr, consts map[string]string) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.Ident:
		s, ok := consts[e.Name]
		return s, ok
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		x, ok1 := constString(e.X, consts)
		y, ok2 := constString(e.Y, consts)
		return x + y, ok1 && ok2
	case *ast.ParenExpr:
		return constString(e.X, consts)
	}
	return "", false
}

// forwards reports whether e passes on a format given elsewhere: a
// function's parameter format, or an error's Format.
func forwards(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "format"
	case *ast.SelectorExpr:
		return e.Sel.Name == "Format"
	}
	return false
}

// TestPluralForms: every plural and form in a language's file gives as
// many forms as the language has (English 2, Czech 3, Japanese 1).
func TestPluralForms(t *testing.T) {
	t.Parallel()
	for _, c := range lang.All {
		pattern := "lang/" + string(c) + ".tmpl"
		if c == lang.English {
			pattern = "*.tmpl"
		}
		for name, tree := range definitions(t, pattern) {
			walk(tree.Root, func(n parse.Node) {
				var pipes []*parse.PipeNode
				switch n := n.(type) {
				case *parse.ActionNode:
					pipes = append(pipes, n.Pipe)
				case *parse.IfNode:
					pipes = append(pipes, n.Pipe)
				case *parse.WithNode:
					pipes = append(pipes, n.Pipe)
				case *parse.TemplateNode:
					pipes = append(pipes, n.Pipe)
				}
				for len(pipes) > 0 {
					p := pipes[0]
					pipes = pipes[1:]
					if p == nil {
						continue
					}
					for _, cmd := range p.Cmds {
						for _, a := range cmd.Args {
							if sub, ok := a.(*parse.PipeNode); ok {
								pipes = append(pipes, sub)
							}
						}
						id, ok := cmd.Args[0].(*parse.IdentifierNode)
						if !ok || id.Ident != "plural" && id.Ident != "form" {
							continue
						}
						if got, want := len(cmd.Args)-2, len(c.Forms()); got != want {
							t.Errorf("%s: %q: %s gives %d forms, %s has %d", pattern, name, cmd, got, c, want)
						}
					}
				}
			})
		}
	}
}

// TestPlurals renders numbers of things in each language: Czech has three
// forms (1 den, 2 dny, 5 dní), Japanese none.
func TestPlurals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang lang.Code
		d    int
		want string
	}{
		{lang.English, 1, "1 day"},
		{lang.English, 2, "2 days"},
		{lang.Czech, 1, "1\u00a0den"},   // a no-break space: a number stays with its noun
		{lang.Czech, 2, "2\u00a0dny"},   // a no-break space: a number stays with its noun
		{lang.Czech, 4, "4\u00a0dny"},   // a no-break space: a number stays with its noun
		{lang.Czech, 5, "5\u00a0dní"},   // a no-break space: a number stays with its noun
		{lang.Czech, 22, "22\u00a0dní"}, // a no-break space: a number stays with its noun
		{lang.Japanese, 1, "1日"},
		{lang.Japanese, 5, "5日"},
		{lang.Czech, 3, "3\u00a0dny"},
	}
	for _, tt := range tests {
		if got, err := tongueOf(tt.lang).raw("days", tt.d); err != nil || got != tt.want {
			t.Errorf("%s: days %d = %q, %v, want %q", tt.lang, tt.d, got, err, tt.want)
		}
	}
}

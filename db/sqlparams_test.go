package db

import (
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestSQLOnlyThroughParameters reads the package's source: the text of
// every query must be constant (literals and constants joined with +), so
// that values reach SQLite only as parameters. The exceptions are the
// migrations, whose text is embedded, the schema version they set, and
// the query helpers, whose callers are checked.
func TestSQLOnlyThroughParameters(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]bool{}
	var parsed []*ast.File
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, spec := range g.Specs {
					for _, n := range spec.(*ast.ValueSpec).Names {
						consts[n.Name] = true
					}
				}
			}
		}
	}
	var isConst func(ast.Expr) bool
	isConst = func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.BasicLit:
			return e.Kind == token.STRING
		case *ast.Ident:
			return consts[e.Name]
		case *ast.ParenExpr:
			return isConst(e.X)
		case *ast.BinaryExpr:
			return e.Op == token.ADD && isConst(e.X) && isConst(e.Y)
		}
		return false
	}
	queryArg := map[string]int{
		"ExecContext": 1, "QueryContext": 1, "QueryRowContext": 1, "PrepareContext": 1,
		"Exec": 0, "Query": 0, "QueryRow": 0, "Prepare": 0,
		"exec": 1, "query": 1, "queryRow": 1,
		// Helpers that take the query text: their callers are checked,
		// and inside them the text is their parameter query.
		"queryGames": 2, "queryPlayers": 2, "listGames": 2,
	}
	allowed := []string{"string(script)", `fmt.Sprintf("PRAGMA user_version = %d", m.version)`, "query"}
	checked := 0
	for _, f := range parsed {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			i, ok := queryArg[sel.Sel.Name]
			if !ok || len(call.Args) <= i {
				return true
			}
			// A prepared statement's methods take the parameters alone:
			// its text was checked where it was prepared.
			if inner, ok := sel.X.(*ast.CallExpr); ok {
				if f, ok := inner.Fun.(*ast.SelectorExpr); ok && f.Sel.Name == "StmtContext" {
					return true
				}
			}
			checked++
			q := call.Args[i]
			if isConst(q) {
				return true
			}
			text := exprText(fset, q)
			for _, a := range allowed {
				if text == a {
					return true
				}
			}
			t.Errorf("%s: the query %s is not constant: pass values as parameters", fset.Position(q.Pos()), text)
			return true
		})
	}
	if checked < 20 {
		t.Errorf("checked %d queries, want the package's (more than 20)", checked)
	}
}

// exprText is the source text of e.
func exprText(fset *token.FileSet, e ast.Expr) string {
	var b strings.Builder
	if err := printExpr(&b, fset, e); err != nil {
		return "?"
	}
	return b.String()
}

func printExpr(b *strings.Builder, fset *token.FileSet, e ast.Expr) error {
	return format.Node(b, fset, e)
}

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
	t.Parallel()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]bool{}
	var parsed []*ast.File
	// The fields of queries, whose values (sqliteQueries,
	// postgresQueries) are checked to be constant below.
	fields := map[string]bool{}
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
		case *ast.SelectorExpr:
			// tx.db.q.due: a field of a backend's queries.
			inner, ok := e.X.(*ast.SelectorExpr)
			return ok && inner.Sel.Name == "q" && fields[e.Sel.Name]
		case *ast.CallExpr:
			// d.rebind(text): its text is checked as rebind's argument.
			sel, ok := e.Fun.(*ast.SelectorExpr)
			return ok && sel.Sel.Name == "rebind" && len(e.Args) == 1 && isConst(e.Args[0])
		}
		return false
	}
	for _, f := range parsed {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, spec := range g.Specs {
				ts := spec.(*ast.TypeSpec)
				if st, ok := ts.Type.(*ast.StructType); ok && ts.Name.Name == "queries" {
					for _, fl := range st.Fields.List {
						for _, n := range fl.Names {
							fields[n.Name] = true
						}
					}
				}
			}
		}
	}
	backends := 0
	for _, f := range parsed {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if id, ok := lit.Type.(*ast.Ident); !ok || id.Name != "queries" {
				return true
			}
			backends++
			for _, e := range lit.Elts {
				kv := e.(*ast.KeyValueExpr)
				if !isConst(kv.Value) {
					t.Errorf("%s: the query %s is not constant", fset.Position(kv.Pos()), exprText(fset, kv.Value))
				}
			}
			return true
		})
	}
	if backends != 2 {
		t.Errorf("found the queries of %d backends, want 2 (sqlite.go, postgres.go)", backends)
	}
	queryArg := map[string]int{
		"ExecContext": 1, "QueryContext": 1, "QueryRowContext": 1, "PrepareContext": 1,
		"Exec": 0, "Query": 0, "QueryRow": 0, "Prepare": 0,
		"exec": 1, "query": 1, "queryRow": 1,
		// Helpers that take the query text: their callers are checked,
		// and inside them the text is their parameter query.
		"queryGames": 2, "queryPlayers": 2, "listGames": 2,
	}
	allowed := []string{"string(script)", `fmt.Sprintf("PRAGMA user_version = %d", v)`, "query", "d.rebind(query)",
		"t.db.rebind(query)"}
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

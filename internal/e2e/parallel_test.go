package e2e

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryTestRunsInParallelOrSaysWhy keeps the suite fast as it grows:
// its tests mostly wait on processes, so each top-level test starts with
// t.Parallel(), or with a comment "// Not parallel: REASON" (a short
// timeout or an on-screen moment a loaded machine can miss, a timed
// check). A test that does neither makes CI slower for everyone.
func TestEveryTestRunsInParallelOrSaysWhy(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("internal", "e2e", "*_test.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files in internal/e2e (%v)", err)
	}
	fset := token.NewFileSet()
	for _, path := range files {
		file, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Name.Name == "TestMain" {
				continue
			}
			if startsParallel(fn.Body) || saysWhyNot(file, fn.Body) {
				continue
			}
			t.Errorf("%s: %s neither starts with t.Parallel() nor says why not (a first line \"// Not parallel: REASON\")",
				fset.Position(fn.Pos()), fn.Name.Name)
		}
	}
}

// startsParallel reports whether the body's first statement is t.Parallel().
func startsParallel(body *ast.BlockStmt) bool {
	if len(body.List) == 0 {
		return false
	}
	expr, ok := body.List[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := expr.X.(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Parallel"
}

// saysWhyNot reports whether a "Not parallel:" comment opens the body.
func saysWhyNot(file *ast.File, body *ast.BlockStmt) bool {
	end := body.Rbrace
	if len(body.List) > 0 {
		end = body.List[0].Pos()
	}
	for _, group := range file.Comments {
		if group.Pos() > body.Lbrace && group.End() <= end && strings.HasPrefix(strings.TrimSpace(group.Text()), "Not parallel:") {
			return true
		}
	}
	return false
}

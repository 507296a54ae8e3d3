package builtin

import "testing"

func TestTodo(t *testing.T) {
	cs := connect(t, NewTodo())
	if got := mustOK(t, cs, "list", nil); got != "The task list is empty." {
		t.Errorf("empty list = %q", got)
	}
	mustOK(t, cs, "add", map[string]any{"titles": []any{"read the code", "write tests", "ship"}})
	mustOK(t, cs, "update", map[string]any{"id": 1, "status": "done"})
	mustOK(t, cs, "update", map[string]any{"id": 2, "status": "in_progress", "title": "write more tests"})
	got := mustOK(t, cs, "remove", map[string]any{"id": 3})
	if want := "1. [x] read the code\n2. [~] write more tests"; got != want {
		t.Errorf("list = %q, want %q", got, want)
	}
	mustFail(t, cs, "update", map[string]any{"id": 9, "status": "done"}, "there is no task 9")
	mustFail(t, cs, "update", map[string]any{"id": 1, "status": "finished"}, `unknown status "finished"`)
	mustFail(t, cs, "add", map[string]any{"titles": []any{" "}}, "a title is empty")
}

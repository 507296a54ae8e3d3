package builtin

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The states of a todo item.
const (
	todoPending    = "pending"
	todoInProgress = "in_progress"
	todoDone       = "done"
)

// todoServer is a task list kept in memory for one session: the model
// uses it to plan and track multi-step work. It touches nothing outside
// mcphost's memory.
type todoServer struct {
	mu    sync.Mutex
	items []todoItem
	next  int
}

type todoItem struct {
	id            int
	title, status string
}

// NewTodo returns the todo server with an empty list.
func NewTodo() *mcp.Server { return newTodoServer().serve(context.Background()) }

func newTodoServer() *todoServer { return &todoServer{next: 1} }

// serve registers the tools; the list lives in memory only.
func (s *todoServer) serve(context.Context) *mcp.Server {
	srv := mcp.NewServer(implementation("todo"), nil)
	closed := ptr(false)
	mcp.AddTool(srv, &mcp.Tool{Name: "list", Description: "Show the task list.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: closed}}, s.list)
	mcp.AddTool(srv, &mcp.Tool{Name: "add", Description: "Add tasks to the list (as pending) and show the list.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: closed}}, s.add)
	mcp.AddTool(srv, &mcp.Tool{Name: "update", Description: "Change a task's status (pending, in_progress, done) or title, and show the list.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: closed}}, s.update)
	mcp.AddTool(srv, &mcp.Tool{Name: "remove", Description: "Remove a task from the list, and show the list.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: closed}}, s.remove)
	return srv
}

func (s *todoServer) close() {}

// render shows the list; the caller holds mu.
func (s *todoServer) render() *mcp.CallToolResult {
	if len(s.items) == 0 {
		return textResult("The task list is empty.")
	}
	var b strings.Builder
	for _, it := range s.items {
		mark := " "
		switch it.status {
		case todoInProgress:
			mark = "~"
		case todoDone:
			mark = "x"
		}
		fmt.Fprintf(&b, "%d. [%s] %s\n", it.id, mark, it.title)
	}
	return textResult(strings.TrimSuffix(b.String(), "\n"))
}

func (s *todoServer) list(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.render(), nil, nil
}

type todoAddArgs struct {
	Titles []string `json:"titles" jsonschema:"the tasks to add, in order"`
}

func (s *todoServer) add(_ context.Context, _ *mcp.CallToolRequest, in todoAddArgs) (*mcp.CallToolResult, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(in.Titles) == 0 {
		return nil, nil, errors.New("give at least one title")
	}
	for _, t := range in.Titles {
		if strings.TrimSpace(t) == "" {
			return nil, nil, errors.New("a title is empty")
		}
	}
	for _, t := range in.Titles {
		s.items = append(s.items, todoItem{id: s.next, title: strings.TrimSpace(t), status: todoPending})
		s.next++
	}
	return s.render(), nil, nil
}

type todoUpdateArgs struct {
	ID     int    `json:"id" jsonschema:"the task's number"`
	Status string `json:"status,omitempty" jsonschema:"pending, in_progress or done"`
	Title  string `json:"title,omitempty" jsonschema:"a new title"`
}

func (s *todoServer) update(_ context.Context, _ *mcp.CallToolRequest, in todoUpdateArgs) (*mcp.CallToolResult, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, err := s.find(in.ID)
	if err != nil {
		return nil, nil, err
	}
	switch in.Status {
	case "":
	case todoPending, todoInProgress, todoDone:
		s.items[i].status = in.Status
	default:
		return nil, nil, fmt.Errorf("unknown status %q: use pending, in_progress or done", in.Status)
	}
	if t := strings.TrimSpace(in.Title); t != "" {
		s.items[i].title = t
	}
	return s.render(), nil, nil
}

type todoRemoveArgs struct {
	ID int `json:"id" jsonschema:"the task's number"`
}

func (s *todoServer) remove(_ context.Context, _ *mcp.CallToolRequest, in todoRemoveArgs) (*mcp.CallToolResult, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, err := s.find(in.ID)
	if err != nil {
		return nil, nil, err
	}
	s.items = append(s.items[:i], s.items[i+1:]...)
	return s.render(), nil, nil
}

// find returns the index of the task numbered id; the caller holds mu.
func (s *todoServer) find(id int) (int, error) {
	for i, it := range s.items {
		if it.id == id {
			return i, nil
		}
	}
	return -1, fmt.Errorf("there is no task %d: list shows the numbers", id)
}

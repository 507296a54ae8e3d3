package servers

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/tool"
)

// MCP tasks (2025-11-25, SEP-1686): a tool whose definition says
// execution.taskSupport is called with a "task" in its tools/call; the
// server answers at once with a task, whose status the client polls with
// tasks/get and whose result tasks/result returns once the task is done
// (delivering meanwhile the requests the task makes, such as
// elicitation). tasks/cancel stops it.
//
// go-sdk v1.8.0 has no tasks API: its CallToolParams has no "task" field,
// and its CallToolResult drops the "task" of the answer. So the call is
// sent as a custom method whose params carry the task, renamed to
// tools/call by a sending middleware, and the task is read off the wire
// by the tap (tap.go). The other methods go through the SDK's custom
// method support. A legacy SSE server's answers are not tapped: its task
// tools fail with the server's own error.

// taskCallMethod is the name a task-augmented tools/call goes through the
// SDK under; the middleware of addTaskMethods sends it as tools/call.
const taskCallMethod = "mcphost/tools/call-as-task"

// taskTTL is how long a server keeps a task and its result.
const taskTTL = 30 * time.Minute

// defaultPoll is the wait between two tasks/get when the server proposes
// none; minPoll is the shortest wait honoured.
const (
	defaultPoll = time.Second
	minPoll     = 100 * time.Millisecond
)

// taskNotice bounds the wait for the tap to hand over the task of a call
// whose answer the SDK already has.
const taskNotice = 2 * time.Second

type taskCallParams struct {
	mcp.ParamsBase
	Name      string   `json:"name"`
	Arguments any      `json:"arguments,omitempty"`
	Task      taskSpec `json:"task"`
}

type taskSpec struct {
	TTL int64 `json:"ttl,omitempty"`
}

type taskIDParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

// taskState is a task as tasks/get and tasks/cancel return it.
type taskState struct {
	mcp.ResultBase
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	PollInterval  int64  `json:"pollInterval,omitempty"`
}

// The statuses of a task that will not change again.
func terminal(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// addTaskMethods registers the task methods on c, and the middleware
// that sends a task-augmented call as tools/call.
func addTaskMethods(c *mcp.Client) {
	// The names are not standard MCP methods, so registration cannot fail.
	_ = mcp.AddSendingCustomMethod[*taskCallParams, *mcp.CallToolResult](c, taskCallMethod)
	_ = mcp.AddSendingCustomMethod[*taskIDParams, *taskState](c, "tasks/get")
	_ = mcp.AddSendingCustomMethod[*taskIDParams, *mcp.CallToolResult](c, "tasks/result")
	_ = mcp.AddSendingCustomMethod[*taskIDParams, *taskState](c, "tasks/cancel")
	c.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == taskCallMethod {
				method = "tools/call"
			}
			return next(ctx, method, req)
		}
	})
}

// taskSupport reads execution.taskSupport from a tool's definition as the
// server sent it: "required" or "optional", else "".
func taskSupport(raw json.RawMessage) string {
	var def struct {
		Execution struct {
			TaskSupport string `json:"taskSupport"`
		} `json:"execution"`
	}
	if json.Unmarshal(raw, &def) != nil {
		return ""
	}
	switch def.Execution.TaskSupport {
	case "required", "optional":
		return def.Execution.TaskSupport
	}
	return ""
}

// callTask runs a call as a task: creates it, reports its status as
// progress while tasks/result waits for its result, and cancels it when
// ctx ends. A server that answered without a task gave the result itself.
func (m *Manager) callTask(ctx context.Context, c *conn, name string, args map[string]any, token string, pc *progressCall) (*mcp.CallToolResult, error) {
	params := &taskCallParams{Name: name, Arguments: args, Task: taskSpec{TTL: taskTTL.Milliseconds()}}
	params.SetMeta(map[string]any{"progressToken": token})
	noticed := c.raw.expectTask(token)
	res, err := mcp.CallCustomMethod[*taskCallParams, *mcp.CallToolResult](ctx, c.sess, taskCallMethod, params)
	if err != nil {
		c.raw.takeTask(token)
		return nil, err
	}
	if len(res.Content) == 0 && res.StructuredContent == nil {
		// The SDK read the answer before the tap was done with it.
		t := time.NewTimer(taskNotice)
		select {
		case <-noticed:
		case <-t.C:
		}
		t.Stop()
	}
	var task taskState
	raw := c.raw.takeTask(token)
	if raw == nil || json.Unmarshal(raw, &task) != nil || task.TaskID == "" {
		return res, nil
	}
	m.log.Debug("tool call runs as a task", "server", c.server, "tool", name, "task", task.TaskID, "status", task.Status)
	pc.deliver(tool.Progress{Status: task.Status, Message: task.StatusMessage})

	// tasks/result blocks until the task ends; meanwhile tasks/get shows
	// how it goes.
	type outcome struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		r, err := mcp.CallCustomMethod[*taskIDParams, *mcp.CallToolResult](ctx, c.sess, "tasks/result", &taskIDParams{TaskID: task.TaskID})
		done <- outcome{r, err}
	}()
	last := task
	for {
		wait := time.Duration(last.PollInterval) * time.Millisecond
		if wait < minPoll {
			wait = defaultPoll
		}
		t := time.NewTimer(wait)
		select {
		case o := <-done:
			t.Stop()
			if ctx.Err() != nil {
				// tasks/result gave up because the call was cancelled, and
				// won the race with ctx.Done: the task still runs.
				m.cancelTask(c, task.TaskID)
				return nil, context.Cause(ctx)
			}
			return o.res, o.err
		case <-ctx.Done():
			t.Stop()
			m.cancelTask(c, task.TaskID)
			return nil, context.Cause(ctx)
		case <-t.C:
		}
		st, err := mcp.CallCustomMethod[*taskIDParams, *taskState](ctx, c.sess, "tasks/get", &taskIDParams{TaskID: task.TaskID})
		if err != nil {
			continue // tasks/result says how it ends
		}
		if st.Status != last.Status || st.StatusMessage != last.StatusMessage {
			pc.deliver(tool.Progress{Status: st.Status, Message: st.StatusMessage})
		}
		last = *st
		if terminal(st.Status) && st.Status != "completed" {
			// A failed or cancelled task may have no result to wait for.
			select {
			case o := <-done:
				return o.res, o.err
			case <-time.After(wait):
				return nil, fmt.Errorf("the task %s", st.Status)
			}
		}
	}
}

// cancelTask asks the server to stop a task, briefly: the call has been
// given up already.
func (m *Manager) cancelTask(c *conn, id string) {
	ctx, cancel := context.WithTimeout(c.life, 5*time.Second)
	defer cancel()
	if _, err := mcp.CallCustomMethod[*taskIDParams, *taskState](ctx, c.sess, "tasks/cancel", &taskIDParams{TaskID: id}); err != nil {
		m.log.Debug("tasks/cancel failed", "server", c.server, "task", id, "error", err)
		return
	}
	m.log.Debug("task cancelled", "server", c.server, "task", id)
}

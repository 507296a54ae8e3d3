package chat

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/termtext"
)

// questionQueue puts the chat's questions to the person one at a time,
// in the order they came: an approval, a server's sampling request and a
// server's form can all arrive at once (the tool calls of one model
// message run side by side, and a server asks while its call runs), and
// two questions on screen together would share the keys: the y typed for
// the one drawn last could answer the one above it. A question waits
// here, not drawn, until the one before it is answered.
type questionQueue struct {
	mu      sync.Mutex
	busy    bool
	waiting []chan struct{}
}

// take waits for the question's turn, or for ctx to end; done hands the
// screen and the keys to the next question.
func (q *questionQueue) take(ctx context.Context) (done func(), err error) {
	q.mu.Lock()
	if !q.busy {
		q.busy = true
		q.mu.Unlock()
		return q.next, nil
	}
	turn := make(chan struct{})
	q.waiting = append(q.waiting, turn)
	q.mu.Unlock()
	select {
	case <-turn:
		return q.next, nil
	case <-ctx.Done():
		q.mu.Lock()
		i := slices.Index(q.waiting, turn)
		if i >= 0 {
			q.waiting = slices.Delete(q.waiting, i, i+1)
		}
		q.mu.Unlock()
		if i < 0 {
			// The turn came as ctx ended: pass it on.
			q.next()
		}
		return nil, ctx.Err()
	}
}

// next gives the turn to the question that waited longest, if any.
func (q *questionQueue) next() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.waiting) == 0 {
		q.busy = false
		return
	}
	turn := q.waiting[0]
	q.waiting = q.waiting[1:]
	close(turn)
}

// question takes the screen and the keys for one question: it waits for
// the questions before it to be answered, stops the turn's spinner, takes
// the keys from the type-ahead reader and drops whatever was typed before
// the question is drawn, so that only a key pressed while it is on
// screen answers it. done gives all of that back (the spinner is resumed
// by the caller, which knows when the call it asked about goes on).
func (c *Chat) question(ctx context.Context) (done func(), err error) {
	next, err := c.questions.take(ctx)
	if err != nil {
		return nil, err
	}
	c.pauseTurn()
	release := c.holdInput()
	discardInput(c.opts.In)
	return func() {
		release()
		next()
	}, nil
}

// runningCall is a tool call of the running turn, for naming the call a
// server's question comes from.
type runningCall struct {
	id, server, tool string
}

// trackCalls wraps a turn's event handler: it keeps the turn's running
// tool calls, so that a server's question can say during which call it
// comes.
func (c *Chat) trackCalls(on func(host.Event)) func(host.Event) {
	return func(ev host.Event) {
		switch ev := ev.(type) {
		case host.ToolCallStarted:
			c.mu.Lock()
			c.running = append(c.running, runningCall{ev.Call.ID, ev.Server, ev.Tool})
			c.mu.Unlock()
		case host.ToolCallFinished:
			c.mu.Lock()
			if i := slices.IndexFunc(c.running, func(r runningCall) bool {
				return r.id == ev.Call.ID && r.server == ev.Server && r.tool == ev.Tool
			}); i >= 0 {
				c.running = slices.Delete(c.running, i, i+1)
			}
			if i := slices.Index(c.refused, ev.Server+"\x00"+ev.Tool); i >= 0 {
				c.refused = slices.Delete(c.refused, i, i+1)
			}
			c.mu.Unlock()
		}
		on(ev)
	}
}

// during names the tool calls of server that are running (not waiting
// for their approval) for a question that server asks: " (during server
// › tool)", " (during server › a or server › b)" when several run, and
// nothing when none does (a question between calls).
func (c *Chat) during(server string) string {
	if server == "" {
		return ""
	}
	c.mu.Lock()
	asking := append(slices.Clone(c.awaiting), c.refused...)
	var tools []string
	for _, r := range c.running {
		if r.server != server {
			continue
		}
		// A call waiting for its approval, or refused it, has not
		// started on the server.
		if i := slices.Index(asking, r.server+"\x00"+r.tool); i >= 0 {
			asking = slices.Delete(asking, i, i+1)
			continue
		}
		tools = append(tools, r.tool)
	}
	c.mu.Unlock()
	slices.Sort(tools)
	tools = slices.Compact(tools)
	if len(tools) == 0 {
		return ""
	}
	for i, t := range tools {
		tools[i] = termtext.Reveal(server + " › " + t)
	}
	return " (during " + strings.Join(tools, " or ") + ")"
}

// awaitApproval notes that a call of server's tool waits for its
// approval (it is not running on the server yet) until answered is
// called; one refused never runs there, which is noted until the call
// finishes.
func (c *Chat) awaitApproval(server, tool string) (answered func(yes bool)) {
	key := server + "\x00" + tool
	c.mu.Lock()
	c.awaiting = append(c.awaiting, key)
	c.mu.Unlock()
	return func(yes bool) {
		c.mu.Lock()
		if i := slices.Index(c.awaiting, key); i >= 0 {
			c.awaiting = slices.Delete(c.awaiting, i, i+1)
		}
		if !yes && c.turnOut != nil {
			c.refused = append(c.refused, key)
		}
		c.mu.Unlock()
	}
}

package servers

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Restart stops the server (calls in flight on it fail, saying it was
// restarted) and starts it again, waiting until it is ready or has
// failed. Its budget of automatic restarts starts afresh. A disabled
// server is not started: use Enable.
func (m *Manager) Restart(ctx context.Context, name string) error {
	s, old, epoch, err := m.takeOver(name, func(s *server) error {
		if s.state == StateDisabled {
			return fmt.Errorf("server %q is disabled: enable it instead", name)
		}
		return nil
	}, StateStarting)
	if err != nil {
		return err
	}
	defer m.work.Done()
	if old != nil {
		old.stop(errRestarted)
	}
	m.log.Debug("restarting server on request", "server", name)
	if serr := m.bringUp(ctx, s, epoch, false); serr != nil {
		return serr
	}
	return nil
}

// Disable stops the server and removes its tools from Tools at once; calls
// in flight on it fail, saying it was disabled. The process is shut down
// in the background (Close waits for it). Disabling a disabled server does
// nothing.
func (m *Manager) Disable(name string) error {
	_, old, _, err := m.takeOver(name, nil, StateDisabled)
	if err != nil {
		return err
	}
	m.log.Debug("server disabled", "server", name)
	go func() {
		defer m.work.Done()
		if old != nil {
			old.stop(errDisabled)
		}
	}()
	return nil
}

// Enable starts a disabled server and waits until it is ready or has
// failed; its tools come back with it. Enabling a server that is not
// disabled does nothing.
func (m *Manager) Enable(ctx context.Context, name string) error {
	s, _, epoch, err := m.takeOver(name, func(s *server) error {
		if s.state != StateDisabled {
			return errNothingToDo
		}
		return nil
	}, StateStarting)
	if err == errNothingToDo {
		return nil
	}
	if err != nil {
		return err
	}
	defer m.work.Done()
	m.log.Debug("server enabled", "server", name)
	if serr := m.bringUp(ctx, s, epoch, true); serr != nil {
		return serr
	}
	return nil
}

// errNothingToDo tells Enable that the server is not disabled.
var errNothingToDo = errors.New("nothing to do")

// takeOver makes a deliberate change to server name: unless check refuses,
// it voids starts and restarts in flight (a new epoch), detaches the live
// connection (returned, for the caller to stop) and sets the server's
// state. It registers the caller with m.work; the caller must call
// m.work.Done.
func (m *Manager) takeOver(name string, check func(*server) error, state State) (*server, *conn, uint64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.byName[name]
	switch {
	case s == nil:
		return nil, nil, 0, fmt.Errorf("no server %q", name)
	case m.closed:
		return nil, nil, 0, fmt.Errorf("server %q: %v", name, errClosed)
	case !m.started && state != StateDisabled:
		return nil, nil, 0, fmt.Errorf("server %q: the servers have not been started", name)
	case s.startErr != nil && s.startErr.Err == nil:
		return nil, nil, 0, s.startErr // a config problem (bad or duplicate name)
	}
	if check != nil {
		if err := check(s); err != nil {
			return nil, nil, 0, err
		}
	}
	m.work.Add(1)
	s.epoch++
	old := s.cur
	s.cur, s.pid = nil, 0
	s.state, s.err, s.startErr = state, nil, nil
	if state == StateStarting {
		// A start on request begins afresh: its own restarts, its own
		// wait, no earlier failure to compare with.
		s.restarts, s.lastFail, s.waitFrom = nil, "", time.Now()
	}
	s.notifyLocked()
	return s, old, s.epoch, nil
}

package provider

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestMeterEndsTheCallPastTheCap(t *testing.T) {
	ctx, m := Limits{MaxReplyBytes: 10, IdleTimeout: time.Hour}.Watch(context.Background())
	defer m.Stop()
	if !m.Add(6) || !m.Add(4) {
		t.Fatal("a reply within the cap was stopped")
	}
	if ctx.Err() != nil || m.Err() != nil {
		t.Fatalf("ended within the cap: %v, %v", ctx.Err(), m.Err())
	}
	if m.Add(1) {
		t.Error("a reply past the cap went on")
	}
	if !errors.Is(context.Cause(ctx), ErrReplyTooLarge) || !errors.Is(m.Err(), ErrReplyTooLarge) || !errors.Is(m.Err(), ErrProvider) {
		t.Errorf("cause %v, err %v", context.Cause(ctx), m.Err())
	}
}

func TestMeterEndsASilentCall(t *testing.T) {
	ctx, m := Limits{IdleTimeout: time.Millisecond}.Watch(context.Background())
	defer m.Stop()
	<-ctx.Done()
	if !errors.Is(m.Err(), ErrIdle) || m.Add(1) {
		t.Errorf("err %v after the idle timeout", m.Err())
	}
}

func TestLimitsDefaults(t *testing.T) {
	if l := (Limits{}).withDefaults(); l.MaxReplyBytes != DefaultMaxReplyBytes || l.IdleTimeout != DefaultIdleTimeout || l.Timeout != DefaultTimeout {
		t.Errorf("defaults = %+v", l)
	}
}

// TestMeterEndsACallThatTakesTooLong: a reply that trickles in, each
// piece well within the idle timeout, still ends at the total timeout.
func TestMeterEndsACallThatTakesTooLong(t *testing.T) {
	ctx, m := Limits{IdleTimeout: time.Hour, Timeout: 50 * time.Millisecond}.Watch(context.Background())
	defer m.Stop()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for ctx.Err() == nil {
		select {
		case <-tick.C:
			m.Add(1)
		case <-ctx.Done():
		}
	}
	if !errors.Is(m.Err(), ErrTimeout) || !errors.Is(m.Err(), ErrProvider) || m.Add(1) {
		t.Errorf("err %v after the total timeout", m.Err())
	}
}

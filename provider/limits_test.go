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
	if l := (Limits{}).withDefaults(); l.MaxReplyBytes != DefaultMaxReplyBytes || l.IdleTimeout != DefaultIdleTimeout {
		t.Errorf("defaults = %+v", l)
	}
}

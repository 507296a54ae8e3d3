package provider

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// The retry policy runs on synctest's fake clock, with DefaultRetry's real
// waits: the test takes no time, and measures the waits a user sits
// through, not a shortened copy of them.
func TestDefaultRetryWaitsHalfASecondThenDoubles(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var tries []time.Duration
		failed := errors.New("engine loading")
		err := DefaultRetry().Do(context.Background(),
			func() (bool, error) { tries = append(tries, time.Since(start)); return false, failed },
			func(error) bool { return true },
			func(err error) error { return &Error{Message: "ollama: " + err.Error()} })
		// Four tries, 0.5s, 1s and 2s apart: 3.5s before the error shows.
		want := []time.Duration{0, 500 * time.Millisecond, 1500 * time.Millisecond, 3500 * time.Millisecond}
		if len(tries) != len(want) {
			t.Fatalf("tried at %v, want at %v", tries, want)
		}
		for i := range want {
			if tries[i] != want[i] {
				t.Errorf("tried at %v, want at %v", tries, want)
				break
			}
		}
		if err == nil || err.Error() != "ollama: engine loading (tried 4 times)" {
			t.Errorf("err = %v, want the failure and how often it was tried", err)
		}
	})
}

func TestRetryWaitEndsAtOnceOnCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		start := time.Now()
		tries := 0
		r := Retry{Attempts: 10, Delay: time.Minute, MaxDelay: time.Hour}
		done := make(chan error)
		go func() {
			done <- r.Do(ctx,
				func() (bool, error) { tries++; return false, errors.New("busy") },
				func(error) bool { return true },
				func(err error) error { return err })
		}()
		// The first wait (a minute) has begun; the user gives up after 5s.
		time.Sleep(5 * time.Second)
		cancel()
		err := <-done
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want the cancellation", err)
		}
		if d := time.Since(start); d != 5*time.Second || tries != 1 {
			t.Errorf("gave up after %v and %d tries, want at once (5s) after 1", d, tries)
		}
	})
}

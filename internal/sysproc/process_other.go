//go:build !linux

package sysproc

import (
	"context"
	"errors"
	"fmt"
)

// BecomeSubreaper makes this process the reaper of the orphans among its
// descendants on Linux. This system has no such thing: it does nothing and
// returns an error wrapping errors.ErrUnsupported.
func BecomeSubreaper() error {
	return fmt.Errorf("a child subreaper: %w", errors.ErrUnsupported)
}

// KillAdopted kills and reaps the orphans handed to this process by
// BecomeSubreaper, on Linux; here there are none, and it reports true.
func KillAdopted(context.Context) bool { return true }

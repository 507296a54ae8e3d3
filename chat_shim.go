package main

import (
	"context"
	"errors"

	"github.com/mcphost/mcphost/servers"
)

// chatServers is a stop-gap until servers.Manager has Restart, Disable
// and Enable.
type chatServers struct{ *servers.Manager }

func (chatServers) Restart(context.Context, string) error {
	return errors.New("not supported yet")
}
func (chatServers) Disable(string) error                 { return errors.New("not supported yet") }
func (chatServers) Enable(context.Context, string) error { return errors.New("not supported yet") }

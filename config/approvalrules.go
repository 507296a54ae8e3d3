package config

// Approval is the user's tool approval rules: glob patterns over the tool
// names the model sees ("server__tool"). Allow, Ask and Deny come from the
// user's own files, --config and --allow-tool/--deny-tool; Project holds
// the rules of trusted project files, kept apart because they may only
// make a verdict stricter, never loosen the user's ask or deny.
type Approval struct {
	Allow, Ask, Deny []string
	Project          Rules
}

// Rules is one layer's allow, ask and deny patterns.
type Rules struct {
	Allow, Ask, Deny []string
}

// DefaultServerName names the server mcphost runs when no config file
// defines mcpServers: the built-in fs server on the working directory.
const DefaultServerName = "fs"

package config

// Elicitation is how a run that cannot ask anyone (one-shot, piped,
// script, "tools call") answers a server's request for input (MCP
// elicitation): the --elicitation setting.
type Elicitation string

// The modes of --elicitation.
const (
	// ElicitDecline answers every request with "decline": nothing is sent
	// without a person agreeing to it.
	ElicitDecline Elicitation = "decline"
	// ElicitAcceptDefaults accepts a form request with the defaults the
	// server proposed when every required field has one, and declines
	// otherwise.
	ElicitAcceptDefaults Elicitation = "accept-defaults"
)

// ElicitationModes lists the values --elicitation accepts, the default first.
func ElicitationModes() []string {
	return []string{string(ElicitDecline), string(ElicitAcceptDefaults)}
}

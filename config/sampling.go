package config

// Sampling is how a run answers a server's request for a completion by
// the model (MCP sampling/createMessage) when no one can be asked: the
// --sampling setting. The chat asks the user instead.
type Sampling string

// The modes of --sampling.
const (
	// SamplingDeny refuses every request: a server does not spend the
	// user's model, nor see its answers, unless the user said so.
	SamplingDeny Sampling = "deny"
	// SamplingAllow answers every request with the current model.
	SamplingAllow Sampling = "allow"
)

// SamplingModes lists the values --sampling accepts, the default first.
func SamplingModes() []string {
	return []string{string(SamplingDeny), string(SamplingAllow)}
}

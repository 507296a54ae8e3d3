package config

// ServerSampling is how a run answers a server's request for a completion
// by the model (MCP sampling/createMessage) when no one can be asked: the
// --sampling setting. The chat asks the user instead. (The model's own
// generation parameters are provider.GenerationOptions.)
type ServerSampling string

// The modes of --sampling.
const (
	// ServerSamplingDeny refuses every request: a server does not spend
	// the user's model, nor see its answers, unless the user said so.
	ServerSamplingDeny ServerSampling = "deny"
	// ServerSamplingAllow answers every request with the current model.
	ServerSamplingAllow ServerSampling = "allow"
)

// ServerSamplingModes lists the values --sampling accepts, the default
// first.
func ServerSamplingModes() []string {
	return []string{string(ServerSamplingDeny), string(ServerSamplingAllow)}
}

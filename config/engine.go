package config

// Engine is a model engine a config file names under "providers", so that
// "-m NAME:MODEL" reaches it:
//
//	providers:
//	  gpu-box:
//	    type: vllm                      # a name of provider.Engines; openai by default
//	    url: http://10.0.0.5:8000/v1
//	    api-key: ${VLLM_API_KEY}
//	    headers: {X-Team: ml}
//
// An entry named after a preset of provider.Engines (llamacpp, lmstudio,
// vllm, openai) replaces it (its type is then the preset's unless given).
type Engine struct {
	Name string
	// Type is the name of a row of provider.Engines.
	Type string
	// URL is the API's base URL (for Ollama, its host).
	URL string
	// APIKey is sent as a bearer token; Headers with every request. Both
	// have their ${VAR} expanded, and are masked in mcphost's output.
	APIKey  string
	Headers map[string]string
	// Source is the config file that named it.
	Source string
	// Project marks an entry of a project config file (trusted): one
	// named after a preset of provider.Engines moves that preset
	// elsewhere, which a run that uses it says in a warning.
	Project bool
}

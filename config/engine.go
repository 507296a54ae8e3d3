package config

// Engine types a "providers" entry may have.
const (
	EngineOpenAI   = "openai"
	EngineLlamaCpp = "llamacpp"
	EngineLMStudio = "lmstudio"
	EngineVLLM     = "vllm"
	EngineOllama   = "ollama"
)

// Engine is a model engine a config file names under "providers", so that
// "-m NAME:MODEL" reaches it:
//
//	providers:
//	  gpu-box:
//	    type: vllm                      # openai (default), llamacpp, lmstudio, vllm, ollama
//	    url: http://10.0.0.5:8000/v1
//	    api-key: ${VLLM_API_KEY}
//	    headers: {X-Team: ml}
//
// An entry named llamacpp, lmstudio, vllm or openai replaces that preset
// (its type is then the preset's unless given).
type Engine struct {
	Name string
	// Type is one of the Engine* constants.
	Type string
	// URL is the API's base URL (for Ollama, its host).
	URL string
	// APIKey is sent as a bearer token; Headers with every request. Both
	// have their ${VAR} expanded, and are masked in mcphost's output.
	APIKey  string
	Headers map[string]string
	// Source is the config file that named it.
	Source string
}

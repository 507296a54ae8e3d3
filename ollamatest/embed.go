package ollamatest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"slices"
	"strings"
	"unicode"

	"github.com/ollama/ollama/api"
)

// EmbedReply scripts the answer to one /api/embed request.
type EmbedReply struct {
	// Embeddings are the vectors, one per input text.
	Embeddings [][]float32
	// Status, when not zero, makes the reply an HTTP error with Ollama's
	// body {"error": Error}.
	Status int
	Error  string
}

// HandleEmbed sets the function that answers /api/embed for a model the
// server has, given the request's model and its input texts. Without one
// each text gets [WordVector]. fn may be called concurrently.
func (s *Server) HandleEmbed(fn func(model string, input []string) EmbedReply) {
	s.mu.Lock()
	s.embed = fn
	s.mu.Unlock()
}

// EmbedRequests returns the /api/embed requests received so far, in order.
func (s *Server) EmbedRequests() []api.EmbedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.embeds)
}

// wordDims is the length of a WordVector.
const wordDims = 64

// WordVector is the default embedding of a text: a bag of its lower-case
// words, each counted in one of 64 dimensions by its hash. Texts that
// share words are close; it knows no synonyms.
func WordVector(text string) []float32 {
	v := make([]float32, wordDims)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		h := fnv.New32a()
		h.Write([]byte(w))
		v[h.Sum32()%wordDims]++
	}
	return v
}

func (s *Server) serveEmbed(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	var req api.EmbedRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.mu.Lock()
	s.embeds = append(s.embeds, req)
	fn := s.embed
	s.mu.Unlock()
	if req.Model == "" {
		writeError(w, http.StatusBadRequest, "model is required")
		return
	}
	if _, ok := s.lookup(req.Model); !ok {
		// The text of Ollama 0.17's EmbedHandler for a model not pulled.
		writeError(w, http.StatusNotFound, fmt.Sprintf("model %q not found, try pulling it first", req.Model))
		return
	}
	var input []string
	switch in := req.Input.(type) {
	case string:
		input = []string{in}
	case []any:
		for _, x := range in {
			s, ok := x.(string)
			if !ok {
				writeError(w, http.StatusBadRequest, "invalid input type")
				return
			}
			input = append(input, s)
		}
	default:
		writeError(w, http.StatusBadRequest, "invalid input type")
		return
	}
	reply := EmbedReply{}
	if fn != nil {
		reply = fn(req.Model, input)
	} else {
		for _, t := range input {
			reply.Embeddings = append(reply.Embeddings, WordVector(t))
		}
	}
	if reply.Status != 0 {
		writeError(w, reply.Status, reply.Error)
		return
	}
	writeJSON(w, http.StatusOK, api.EmbedResponse{Model: req.Model, Embeddings: reply.Embeddings})
}

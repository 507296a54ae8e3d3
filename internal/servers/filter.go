package servers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mcphost/mcphost/internal/termtext"
)

// defaultMaxMessage bounds one message read from a stdio server, as the
// SDK's own reader does (mcp.DefaultMaxLineLength).
const defaultMaxMessage = 16 << 20

// maxIDLen bounds the top-level keys and scalar values idScanner keeps:
// an id is short, and nothing longer needs to be looked at.
const maxIDLen = 128

// stdoutFilter stands between a stdio server's stdout and the SDK.
//
// The SDK's reader ends the session at the first line that is not a
// JSON-RPC message, yet many servers print banners or log lines to stdout.
// The filter passes on only lines that are JSON objects (or batches) with
// "jsonrpc":"2.0" and reports the rest through junk. A response the SDK
// could never use, because it is too long or not valid JSON, is replaced by
// a JSON-RPC error response with the same id, so the call it answers fails
// at once with a clear message instead of waiting for its timeout.
type stdoutFilter struct {
	r    *bufio.Reader
	max  int
	junk func(line string)

	out []byte // what is left to hand to the SDK
	err error  // the read error to return once out is empty
}

func newStdoutFilter(r io.Reader, max int, junk func(string)) *stdoutFilter {
	if max <= 0 {
		max = defaultMaxMessage
	}
	return &stdoutFilter{r: bufio.NewReaderSize(r, 64<<10), max: max, junk: junk}
}

// Read implements io.Reader, returning whole accepted lines.
func (f *stdoutFilter) Read(p []byte) (int, error) {
	for len(f.out) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		line, size, scan, err := f.readLine()
		if size > 0 {
			f.out = f.judge(line, size, scan)
		}
		f.err = err
	}
	n := copy(p, f.out)
	f.out = f.out[n:]
	return n, nil
}

// Close implements io.Closer; the process owns the pipe.
func (f *stdoutFilter) Close() error { return nil }

// readLine reads one line. It keeps at most f.max bytes of it; size is the
// full length. A line longer than that is scanned for its id as it goes
// by (scan is nil for a line that was kept whole).
func (f *stdoutFilter) readLine() (line []byte, size int, scan *idScanner, err error) {
	for {
		chunk, rerr := f.r.ReadSlice('\n')
		switch {
		case scan != nil:
			scan.feed(chunk)
		case size+len(chunk) <= f.max:
			line = append(line, chunk...)
		default:
			// Too long to keep: look for the id in what was kept and in
			// the rest as it is read.
			scan = &idScanner{}
			scan.feed(line)
			scan.feed(chunk)
		}
		size += len(chunk)
		switch {
		case rerr == bufio.ErrBufferFull:
			continue
		case rerr != nil:
			return line, size, scan, rerr
		default:
			return line, size, scan, nil
		}
	}
}

// judge decides what the SDK gets for one line: the line itself, a
// replacement error response, or nothing.
func (f *stdoutFilter) judge(line []byte, size int, scan *idScanner) []byte {
	trimmed := bytes.TrimSpace(line)
	if size > f.max {
		if id := scan.responseID(); id != nil {
			f.junk(fmt.Sprintf("dropped a response of %d bytes, over the limit of %d", size, f.max))
			return errorResponse(id, fmt.Sprintf("the server sent a response of %s, over mcphost's limit of %s; ask for less", termtext.Bytes(size), termtext.Bytes(f.max)))
		}
		f.junk(fmt.Sprintf("dropped a message of %d bytes, over the limit of %d", size, f.max))
		return nil
	}
	if len(trimmed) == 0 {
		return nil
	}
	switch trimmed[0] {
	case '{':
		var head struct {
			JSONRPC string `json:"jsonrpc"`
		}
		err := json.Unmarshal(trimmed, &head)
		if err == nil && head.JSONRPC == "2.0" {
			return append(trimmed, '\n')
		}
		if err != nil {
			scan := &idScanner{}
			scan.feed(trimmed)
			if id := scan.responseID(); id != nil {
				f.junk("invalid JSON in a response: " + clip(string(trimmed)))
				return errorResponse(id, "the server sent a response that is not valid JSON")
			}
		}
	case '[':
		if json.Valid(trimmed) {
			return append(trimmed, '\n')
		}
	}
	f.junk(clip(string(trimmed)))
	return nil
}

// clip shortens a junk line for the log, as readLines does stderr lines.
func clip(s string) string { return truncateUTF8(s, maxStderrLine) }

// errorResponse is a JSON-RPC error answering id, for the SDK to read.
func errorResponse(id json.RawMessage, msg string) []byte {
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": -32603, "message": msg},
	})
	return append(b, '\n')
}

// idScanner finds the top-level "id" of a JSON object fed to it in pieces,
// without keeping the object: it tracks nesting and strings, and captures
// only the keys and the id value at the top level. It also notes a
// top-level "method", which makes the message a request, not a response.
type idScanner struct {
	depth     int
	inString  bool
	escaped   bool
	token     []byte // the top-level string or scalar being read
	tokenLong bool   // token outgrew maxIDLen
	afterKey  bool   // a top-level key was read; its value comes next
	key       string // the last top-level key
	id        json.RawMessage
	method    bool
	broken    bool // not an object at the top
}

func (s *idScanner) feed(b []byte) {
	for _, c := range b {
		if s.broken {
			return
		}
		if s.inString {
			s.keep(c)
			switch {
			case s.escaped:
				s.escaped = false
			case c == '\\':
				s.escaped = true
			case c == '"':
				s.inString = false
				if s.depth == 1 {
					s.endToken()
				}
			}
			continue
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			if s.depth == 1 {
				s.endToken()
			}
		case '"':
			s.inString = true
			if s.depth == 1 {
				s.token, s.tokenLong = s.token[:0], false
				s.keep(c)
			}
		case '{', '[':
			if s.depth == 0 && c != '{' {
				s.broken = true
				return
			}
			if s.depth == 1 {
				s.afterKey = false // a compound value: not an id
			}
			s.depth++
		case '}', ']':
			if s.depth == 1 {
				s.endToken()
			}
			s.depth--
		case ':':
			if s.depth == 1 {
				s.afterKey = true
				s.token = s.token[:0]
			}
		case ',':
			if s.depth == 1 {
				s.endToken()
				s.afterKey = false
			}
		default:
			if s.depth == 0 {
				s.broken = true
				return
			}
			if s.depth == 1 {
				s.keep(c)
			}
		}
	}
}

func (s *idScanner) keep(c byte) {
	if s.depth != 1 {
		return
	}
	if len(s.token) >= maxIDLen {
		s.tokenLong = true
		return
	}
	s.token = append(s.token, c)
}

// endToken files the top-level token just read as a key or a value.
func (s *idScanner) endToken() {
	if len(s.token) == 0 || s.inString {
		return
	}
	tok, long := s.token, s.tokenLong
	s.token, s.tokenLong = s.token[:0], false
	if long {
		if !s.afterKey {
			s.key = ""
		}
		s.afterKey = false
		return
	}
	if !s.afterKey {
		var k string
		if json.Unmarshal(tok, &k) == nil {
			s.key = k
			if k == "method" {
				s.method = true
			}
		}
		return
	}
	if s.key == "id" && s.id == nil && json.Valid(tok) {
		s.id = append(json.RawMessage(nil), tok...)
	}
	s.afterKey = false
}

// responseID returns the id of a response, or nil if none was seen or the
// message is a request or notification (ids of our own requests and of
// the server's are separate spaces; answering the server is not our job).
func (s *idScanner) responseID() json.RawMessage {
	if s.method || s.broken || s.id == nil || string(s.id) == "null" {
		return nil
	}
	return s.id
}

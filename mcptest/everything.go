package mcptest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcphost/mcphost/internal/sysproc"
)

// readyTimeout bounds how long StartEverything waits for the server to say
// it listens; node start-up is slow on a loaded CI machine, but not this slow.
const readyTimeout = 30 * time.Second

// everythingMode returns, for a StartEverything mode, the line the server
// prints once it listens (before the port number) and the path of its MCP
// endpoint.
func everythingMode(mode string) (ready, path string, ok bool) {
	switch mode {
	case "streamableHttp":
		return "MCP Streamable HTTP Server listening on port", "/mcp", true
	case "sse":
		return "Server is running on port", "/sse", true
	}
	return "", "", false
}

// StartEverything starts mcp-server-everything in mode ("streamableHttp" or
// "sse") on a free loopback port, waits until it listens and returns its
// endpoint URL. The server runs as a process tree of its own (see sysproc),
// which a t.Cleanup ends.
func StartEverything(t testing.TB, mode string) (url string) {
	t.Helper()
	readyPrefix, path, ok := everythingMode(mode)
	if !ok {
		t.Fatalf("mcptest: unknown everything mode %q (want streamableHttp or sse)", mode)
	}
	bin := NPMBin(t, "mcp-server-everything")
	port := freePort(t)

	cmd := exec.Command(bin, mode)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	// One pipe for stdout and stderr: the ready line goes to stdout, a
	// crash to stderr, and both belong in the failure message.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatalf("mcptest: pipe: %v", err)
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	tree, err := sysproc.Start(cmd)
	if err != nil {
		pr.Close()
		pw.Close()
		t.Fatalf("mcptest: starting %s %s: %v", bin, mode, err)
	}
	pw.Close()

	readyLine := fmt.Sprintf("%s %d", readyPrefix, port)
	ready := make(chan struct{})
	drained := make(chan []string, 1)
	go func() {
		// Keep reading after the ready line so the server never blocks on
		// a full pipe; keep the first lines for a failure message.
		var head []string
		seen := false
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			line := sc.Text()
			if len(head) < 50 {
				head = append(head, line)
			}
			if !seen && strings.Contains(line, readyLine) {
				seen = true
				close(ready)
			}
		}
		// A line too long for the scanner ends the loop early; keep draining.
		_, _ = io.Copy(io.Discard, pr)
		drained <- head
	}()

	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		tree.End(ctx)
		select {
		case <-drained:
		case <-time.After(5 * time.Second):
		}
		pr.Close()
	})

	select {
	case <-ready:
	case head := <-drained:
		drained <- head // let the cleanup see it too
		t.Fatalf("mcptest: %s %s exited before listening on port %d:\n%s", bin, mode, port, strings.Join(head, "\n"))
	case <-time.After(readyTimeout):
		t.Fatalf("mcptest: %s %s did not listen on port %d within %s", bin, mode, port, readyTimeout)
	}
	return fmt.Sprintf("http://127.0.0.1:%d%s", port, path)
}

// freePort asks the kernel for a free loopback port. Another process may
// take it before the server binds it; that shows up as a clear failure.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("mcptest: finding a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

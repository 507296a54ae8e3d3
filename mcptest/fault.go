package mcptest

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
)

// BuildFaultServer builds the fault-injection MCP server (mcptest/faultserver)
// into dir and returns the path of the executable. It takes a second or two
// (the go build cache does the rest), so callers build it once per test
// binary, e.g. with sync.OnceValues, into a directory they remove.
func BuildFaultServer(dir string) (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", fmt.Errorf("mcptest: finding the module root: %w", err)
	}
	bin := filepath.Join(dir, "faultserver")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	cmd := exec.Command("go", "build", "-o", bin, "./internal/faultserver")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("mcptest: building the fault server: %v\n%s", err, out)
	}
	return bin, nil
}

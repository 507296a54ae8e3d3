#!/usr/bin/env bash
# Sets up everything the tests need and runs them: the real MCP reference
# servers (npm ci), tmux for the terminal tests, then go test with the race
# detector. Usage: ./scripts/test.sh [go test flags...]
set -euo pipefail
cd "$(dirname "$0")/.."

command -v go >/dev/null || { echo "test.sh: Go is not installed (https://go.dev/dl/)" >&2; exit 1; }
command -v npm >/dev/null || { echo "test.sh: Node.js and npm are needed for the test MCP servers" >&2; exit 1; }

echo "== installing the test MCP servers (testdata/npm)"
npm ci --prefix testdata/npm --no-audit --no-fund --loglevel=error

echo "== installing the MCP conformance suite and its Node.js 22 (testdata/conformance)"
npm ci --prefix testdata/conformance --no-audit --no-fund --loglevel=error

if ! command -v tmux >/dev/null; then
  echo "== installing tmux (terminal tests)"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux >/dev/null
  fi
fi

# A real Ollama (built from its Go module) and the tiny-model generator for
# the end-to-end suite (ollama_e2e_test.go); cached under ~/.cache, so only
# the first run builds (4-8 minutes on 2 cores).
shared_ollama=../shared/ollama
if [ -x "$shared_ollama/setup.sh" ] || [ -f "$shared_ollama/setup.sh" ]; then
  echo "== building/reusing the real Ollama for the end-to-end suite"
  if ! paths=$(bash "$shared_ollama/setup.sh"); then
    echo "test.sh: building the real Ollama failed (see above): the end-to-end suite cannot run" >&2
    exit 1
  fi
  MCPHOST_OLLAMA_BIN=$(sed -n 1p <<<"$paths")
  MCPHOST_TINYMODEL_BIN=$(sed -n 2p <<<"$paths")
  export MCPHOST_OLLAMA_BIN MCPHOST_TINYMODEL_BIN
else
  echo "== $shared_ollama not found: the real-Ollama suite will be skipped (it fails under CI=true)"
fi

echo "== go test -race ./..."
# internal/e2e drives the command (its test binary re-run as mcphost) in
# tmux and pseudo-terminals (about 10 minutes on 2 quiet cores): go test's
# default 10-minute limit per package is too close.
go test -race -count=1 -timeout 25m "$@" ./...

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

if ! command -v tmux >/dev/null; then
  echo "== installing tmux (terminal tests)"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux >/dev/null
  fi
fi

echo "== go test -race ./..."
go test -race -count=1 "$@" ./...

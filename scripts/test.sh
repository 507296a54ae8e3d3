#!/usr/bin/env bash
# Sets up everything the tests need and runs them: the real MCP reference
# servers (npm ci), tmux for the terminal tests, then go test with the race
# detector. Usage: ./scripts/test.sh [go test flags...]
#            or: ./scripts/test.sh --setup-only   (the set-up, no tests)
set -euo pipefail
cd "$(dirname "$0")/.."

setup_only=false
if [ "${1-}" = --setup-only ]; then
  setup_only=true
  shift
fi

command -v go >/dev/null || { echo "test.sh: Go is not installed (https://go.dev/dl/)" >&2; exit 1; }
command -v npm >/dev/null || { echo "test.sh: Node.js and npm are needed for the test MCP servers" >&2; exit 1; }

# npm_install installs the packages of testdata/$1 as its package-lock.json
# pins them, unless the last install here was of this very lock file (a
# copy is kept in node_modules): npm ci always starts from scratch, which
# costs 10-20 s of downloads a run. Delete node_modules to force a fresh
# install.
npm_install() {
  local dir=testdata/$1 stamp=testdata/$1/node_modules/.mcphost-package-lock.json
  if cmp -s "$dir/package-lock.json" "$stamp"; then
    echo "== testdata/$1 is installed as its package-lock.json pins it"
    return
  fi
  # Explicit returns: set -e does not apply to a function run in a || list.
  npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error || return 1
  cp "$dir/package-lock.json" "$stamp" || return 1
}

# The two installs are mostly downloads: they run side by side.
echo "== installing the test MCP servers (testdata/npm) and the MCP conformance suite with its Node.js 22 (testdata/conformance)"
npm_log=$(mktemp)
npm_install npm >"$npm_log" 2>&1 &
npm_pid=$!
conformance_ok=true
npm_install conformance || conformance_ok=false
npm_ok=true
wait "$npm_pid" || npm_ok=false
cat "$npm_log"
rm -f "$npm_log"
$npm_ok || { echo "test.sh: npm ci in testdata/npm failed (see above)" >&2; exit 1; }
$conformance_ok || { echo "test.sh: npm ci in testdata/conformance failed (see above)" >&2; exit 1; }

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

if $setup_only; then
  exit 0
fi

echo "== go test -race ./..."
# internal/e2e drives the command (its test binary re-run as mcphost) in
# tmux and pseudo-terminals; its tests mostly wait on processes (servers
# starting, the command under the race detector, a terminal drawing), so
# they run in parallel, 8 at a time rather than one per core (go test's
# default), which keeps 2 cores busy. The 25-minute limit per package
# (go test's default is 10) is for a loaded machine. Flags given to this
# script come last, so -parallel N here wins.
go test -race -count=1 -timeout 25m -parallel 8 "$@" ./...

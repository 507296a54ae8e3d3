#!/usr/bin/env bash
# Benchmarks, side by side in one run: start-up wall time and peak RSS with
# 0, 1 and 5 stdio servers; the host's own time per agent step over a
# 50-step tool loop; the Go library's time per turn and start-up. Needs the
# test servers: npm ci --prefix testdata/npm.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d testdata/npm/node_modules ] || npm ci --prefix testdata/npm --no-audit --no-fund --loglevel=error
go test -run '^$' -bench 'Startup|AgentStep' -benchtime "${BENCHTIME:-5x}" . | grep -E '^(Benchmark|goos|goarch|cpu|ok|FAIL)'
# The Go library: one Host.Prompt turn with no servers (host-ms/turn is the
# library's own time), and host.New with 0 and 5 servers.
go test -run '^$' -bench 'Prompt|New' -benchtime "${BENCHTIME:-5x}" ./host | grep -E '^(Benchmark|ok|FAIL)'

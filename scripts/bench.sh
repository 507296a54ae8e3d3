#!/usr/bin/env bash
# Benchmarks, side by side in one run: start-up wall time and peak RSS with
# 0, 1 and 5 stdio servers; the host's own time per agent step over a
# 50-step tool loop, on the Ollama path (AgentStep) and the OpenAI-compatible
# one (AgentStepOpenAI); the Go library's time per turn and start-up; the
# OpenAI backend's request encoding and stream reading. Needs the
# test servers: npm ci --prefix testdata/npm. The command's benchmarks in
# internal/e2e build mcphost once with go build and measure that, not the
# test binary the end-to-end tests re-run as mcphost.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d testdata/npm/node_modules ] || npm ci --prefix testdata/npm --no-audit --no-fund --loglevel=error
go test -run '^$' -bench 'Startup|AgentStep' -benchtime "${BENCHTIME:-5x}" ./internal/e2e | grep -E '^(Benchmark|goos|goarch|cpu|ok|FAIL)'
# The tool-list cache and lazy start: time to the first model request, wall
# time and CPU seconds (mcphost and the servers it started) of a run that
# calls one tool, with 0, 5, 10 and 20 configured servers, cold and warm;
# and with 5 warm servers beside one that never answers initialize, which
# holds the first request for --server-wait (2s there), not its start
# timeout (60s).
go test -run '^$' -bench 'FirstRequest' -benchtime "${BENCHTIME:-3x}" ./internal/e2e | grep -E '^(Benchmark|ok|FAIL)'
# The Go library: one Host.Prompt turn with no servers (host-ms/turn is the
# library's own time), and host.New with 0 and 5 servers.
go test -run '^$' -bench 'Prompt|New' -benchtime "${BENCHTIME:-5x}" ./host | grep -E '^(Benchmark|ok|FAIL)'
# The OpenAI-compatible backend alone: encoding a late request of a long
# loop, reading a 4 KB answer streamed in 16-byte chunks plus a call in 64
# fragments, and one call over HTTP to the scripted llama.cpp.
go test -run '^$' -bench 'EncodeRequest|ReadStream|Chat$' -benchtime "${BENCHTIME:-200x}" ./provider/openai | grep -E '^(Benchmark|ok|FAIL)'
# Tool selection: recall of the intended tool over the requests of
# toolselect/testdata (52 tools of seven servers, an 8,192-token window) at
# a quarter, an eighth and a sixteenth of the window, and the host's time
# per step when it selects among 52 and 364 tools; then the one-off cost
# of indexing a tool list and of ranking one request.
go test -run '^$' -bench 'ToolSelection' -benchtime "${BENCHTIME:-5x}" -v ./runner | grep -E '(recall|^Benchmark.*step|^ok|^FAIL)' | sed 's/^ *select_test.go:[0-9]*: //'
go test -run '^$' -bench 'NewIndex|Rank' ./internal/toolselect | grep -E '^(Benchmark|ok|FAIL)'
# The engine's prompt cache on the real Ollama (needs ../shared/ollama's
# build; skipped without it): two turns of search, call and answer over
# 36 tools of which only some are offered. Per request, the prompt's
# tokens beside those Ollama evaluated (what its cache did not hold), for
# all six requests and for the five after the first.
go test -run '^$' -bench 'PromptCache' -benchtime "${BENCHTIME:-3x}" ./internal/e2e | grep -E '^(Benchmark|ok|FAIL)'
# A terminal that answers no query (the Linux console, script, some IDE
# terminals): a one-shot run in a pseudo-terminal the benchmark holds and
# never answers, beside the same run piped.
go test -run '^$' -bench 'SilentTerminal' -benchtime "${BENCHTIME:-10x}" ./internal/e2e | grep -E '^(Benchmark|ok|FAIL)'

#!/bin/sh
# The client under test for the MCP conformance suite's client mode
# (npx conformance client --command "testdata/conformance/client.sh").
# The suite starts a test server per scenario, sets
# MCP_CONFORMANCE_SCENARIO and appends the server's URL as the last
# argument. This script only turns the scenario into the mcphost command
# line a user would type; every protocol behaviour is mcphost's own.
# MCPHOST names the binary (default: mcphost on PATH).
set -eu
for url; do :; done # the last argument
mcphost=${MCPHOST:-mcphost}
case "${MCP_CONFORMANCE_SCENARIO:-}" in
initialize)
	exec "$mcphost" servers --url "$url" ;;
tools_call)
	exec "$mcphost" tools call --url "$url" add_numbers '{"a": 2, "b": 3}' ;;
elicitation-sep1034-client-defaults)
	exec "$mcphost" tools call --url "$url" --elicitation accept-defaults test_client_elicitation_defaults ;;
sse-retry)
	exec "$mcphost" tools call --url "$url" test_reconnection ;;
auth/*)
	# No OAuth yet: connect and list the tools, as a user would first.
	exec "$mcphost" tools list --url "$url" ;;
*)
	echo "client.sh: unknown scenario \"${MCP_CONFORMANCE_SCENARIO:-}\"" >&2
	exit 2 ;;
esac

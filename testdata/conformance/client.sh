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
	# The suite's authorization server approves at once, so the browser
	# only has to fetch the URL and follow the redirect back to mcphost.
	BROWSER='node -e "fetch(process.argv[1]).then(r=>r.text())"'
	export BROWSER
	# mcphost is configured as a user of such a server would configure it:
	# with the client ID metadata document the suite knows (used where the
	# authorization server accepts one), and with the pre-registered client
	# the scenario hands out, if any.
	set -- --oauth-client-metadata-url https://conformance-test.local/client-metadata.json
	id=$(node -e 'const c = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}"); process.stdout.write(c.client_id || "")')
	secret=$(node -e 'const c = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}"); process.stdout.write(c.client_secret || "")')
	if [ -n "$id" ]; then
		set -- "$@" --oauth-client-id "$id"
	fi
	if [ -n "$secret" ]; then
		set -- "$@" --oauth-client-secret "$secret"
	fi
	exec "$mcphost" tools call --url "$url" "$@" test-tool ;;
*)
	echo "client.sh: unknown scenario \"${MCP_CONFORMANCE_SCENARIO:-}\"" >&2
	exit 2 ;;
esac

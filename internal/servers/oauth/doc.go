// Package oauth signs mcphost in to remote MCP servers that ask for it,
// as the MCP authorization spec (OAuth 2.1) describes: it keeps the
// sign-ins (tokens, per server and resource, in a file of the user's
// state directory), adds a server's token to the requests made to that
// server alone, refreshes it before it expires and when the server
// refuses it, and signs in again when the server asks (a 401, or a 403
// for more scopes: a step-up), once per request.
//
// A sign-in is the authorization code flow with PKCE (S256) and the
// resource indicator, run by the go-sdk's auth.AuthorizationCodeHandler
// (protected resource and authorization server metadata discovery; a
// client ID metadata document, a pre-registered client, or dynamic client
// registration; scopes from the challenge, else the metadata). This
// package adds what the user sees: the URL, shown and opened in a browser
// by a SignInFunc (OpenBrowser opens $BROWSER or the system's opener), and
// the loopback listener on 127.0.0.1 the browser comes back to.
package oauth

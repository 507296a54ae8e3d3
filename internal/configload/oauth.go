package configload

import (
	"net/url"
	"strings"

	"github.com/mcphost/mcphost/config"
)

// The flags that give --url's server a client registered beforehand, or a
// client ID metadata document, for its sign-in.
const (
	keyOAuthClientID          = "oauth-client-id"
	keyOAuthClientSecret      = "oauth-client-secret"
	keyOAuthClientMetadataURL = "oauth-client-metadata-url"
)

// oauthKeys are the fields of a server entry's "oauth" object, in the
// spelling errors use; entry.get accepts clientId, client-id and the like.
var oauthKeys = []string{"client_id", "client_secret", "client_metadata_url", "scopes", "redirect_port"}

// oauth reads the "oauth" object of a remote server: a client registered
// beforehand (client_id, client_secret), a client ID metadata document
// (client_metadata_url), the scopes to ask for and a fixed redirect port.
// Variables are expanded in the strings, so the secret can come from the
// environment.
func (p *serverParser) oauth(spec *config.ServerSpec, e entry, x *expander) error {
	name := spec.Name
	v, ok := e.get("oauth")
	if !ok || v == nil {
		return nil
	}
	m, ok := asMap(v)
	if !ok {
		return p.fail(name, "oauth", `"oauth" must be an object such as {"client_id": "…", "client_secret": "${env://SECRET}", "scopes": ["read"], "redirect_port": 8976}`)
	}
	for k := range m {
		known := false
		for _, want := range oauthKeys {
			known = known || normKey(k) == normKey(want)
		}
		if !known {
			return p.fail(name, "oauth", `"oauth" has an unknown field %q: it takes %s`, k, strings.Join(oauthKeys, ", "))
		}
	}
	o := entry{m: m}
	cfg := &config.OAuth{}
	str := func(field string, dst *string) error {
		v, ok := o.get(field)
		if !ok || v == nil {
			return nil
		}
		s, ok := scalarString(v)
		if !ok {
			return p.fail(name, "oauth", `"oauth.%s" must be a string`, field)
		}
		var err error
		*dst, err = x.expand("oauth", `"oauth.`+field+`"`, strings.TrimSpace(s))
		return err
	}
	for _, f := range []struct {
		field string
		dst   *string
	}{{"client_id", &cfg.ClientID}, {"client_secret", &cfg.ClientSecret}, {"client_metadata_url", &cfg.ClientMetadataURL}} {
		if err := str(f.field, f.dst); err != nil {
			return err
		}
	}
	if cfg.ClientSecret != "" && cfg.ClientID == "" && !x.lenient {
		return p.fail(name, "oauth", `"oauth.client_secret" is given without "oauth.client_id": give the ID of the client it belongs to`)
	}
	if cfg.ClientMetadataURL != "" && !x.lenient {
		if msg := checkClientMetadataURL(cfg.ClientMetadataURL); msg != "" {
			return p.fail(name, "oauth", `"oauth.client_metadata_url" %s`, msg)
		}
	}
	if v, ok := o.get("scopes"); ok && v != nil {
		if s, isString := v.(string); isString {
			cfg.Scopes = strings.Fields(s)
		} else {
			list, err := p.stringList(name, o, "scopes")
			if err != nil {
				return p.fail(name, "oauth", `"oauth.scopes" must be a list of scopes, or one string of scopes separated by spaces`)
			}
			for _, s := range list {
				cfg.Scopes = append(cfg.Scopes, strings.Fields(s)...)
			}
		}
	}
	if v, ok := o.get("redirect_port"); ok && v != nil {
		port, err := p.count(name, "redirect_port", v, 1)
		if err != nil || port > 65535 {
			return p.fail(name, "oauth", `"oauth.redirect_port" must be a port number from 1 to 65535`)
		}
		cfg.RedirectPort = port
	}
	spec.OAuth = cfg
	return nil
}

// checkClientMetadataURL says what is wrong with a client ID metadata
// document URL, or returns "": the spec wants an https URL with a path.
func checkClientMetadataURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Host == "" || strings.Trim(u.Path, "/") == "" {
		return "must be an https:// URL with a path, e.g. https://example.com/mcphost-client.json"
	}
	return ""
}

// adhocOAuth reads the --oauth-* flags, which only go with --url.
func (o *LoadOptions) adhocOAuth(adhoc *config.ServerSpec) error {
	id, secret, doc := o.flagString(keyOAuthClientID), o.flagString(keyOAuthClientSecret), o.flagString(keyOAuthClientMetadataURL)
	if id == "" && secret == "" && doc == "" {
		return nil
	}
	switch {
	case adhoc == nil || adhoc.Transport == config.TransportStdio:
		return &config.Error{Field: keyOAuthClientID, Message: "--oauth-client-id, --oauth-client-secret and --oauth-client-metadata-url go with --url (a server in a config file takes an \"oauth\" object)"}
	case secret != "" && id == "":
		return &config.Error{Field: keyOAuthClientSecret, Message: "--oauth-client-secret needs --oauth-client-id: give the ID of the client it belongs to"}
	case doc != "" && checkClientMetadataURL(doc) != "":
		return &config.Error{Field: keyOAuthClientMetadataURL, Message: "--oauth-client-metadata-url " + checkClientMetadataURL(doc)}
	}
	adhoc.OAuth = &config.OAuth{ClientID: id, ClientSecret: secret, ClientMetadataURL: doc}
	return nil
}

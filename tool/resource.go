package tool

// ResourceDef is a resource as its server listed it (MCP resources/list).
type ResourceDef struct {
	URI         string
	Name        string
	Title       string
	Description string
	MIMEType    string
	// Size is the size in bytes, 0 when the server did not say.
	Size int64
}

// ResourceTemplate is a family of resources whose URIs follow an RFC 6570
// template (MCP resources/templates/list), such as
// "demo://resource/dynamic/text/{index}".
type ResourceTemplate struct {
	URITemplate string
	Name        string
	Title       string
	Description string
	MIMEType    string
}

// Display is the name to show for a resource: its title, else its name,
// else its URI.
func (r ResourceDef) Display() string {
	switch {
	case r.Title != "":
		return r.Title
	case r.Name != "":
		return r.Name
	}
	return r.URI
}

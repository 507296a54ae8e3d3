package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcphost/mcphost/internal/nofollow"
	"github.com/mcphost/mcphost/internal/userdirs"
	"golang.org/x/oauth2"
)

// storeFileName is the file of sign-ins in the user's state directory.
const storeFileName = "oauth.json"

// lockWait bounds the wait for another mcphost that is writing the store
// (a refresh takes one request to the authorization server).
const lockWait = 30 * time.Second

// Record is one sign-in: a server's token for one resource, and the client
// it was obtained with, which refreshing it needs.
type Record struct {
	// Server is the server's name in the config; Resource the resource
	// the token was issued for (the server's URL, or its origin), as the
	// authorization request named it.
	Server   string `json:"server"`
	Resource string `json:"resource"`
	// The client: its ID and secret (dynamically registered, pre-registered
	// or a metadata document's URL), how the token endpoint takes them,
	// and the authorization server's endpoints.
	ClientID     string           `json:"client_id"`
	ClientSecret string           `json:"client_secret,omitempty"`
	AuthStyle    oauth2.AuthStyle `json:"auth_style,omitempty"`
	AuthURL      string           `json:"authorization_endpoint,omitempty"`
	TokenURL     string           `json:"token_endpoint"`
	// Scopes are the scopes granted; Wanted are more that the server asked
	// for since (a step-up that could not be made then), which the next
	// sign-in asks for too.
	Scopes []string `json:"scopes,omitempty"`
	Wanted []string `json:"wanted_scopes,omitempty"`
	// The token.
	AccessToken  string    `json:"access_token"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	TokenType    string    `json:"token_type,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	SignedInAt   time.Time `json:"signed_in_at"`
}

// fresh reports whether the access token is good for at least margin.
func (r *Record) fresh(now time.Time, margin time.Duration) bool {
	return r.AccessToken != "" && (r.Expiry.IsZero() || r.Expiry.After(now.Add(margin)))
}

// secrets are the values of r that no output may show.
func (r *Record) secrets() []string {
	return []string{r.AccessToken, r.RefreshToken, r.ClientSecret}
}

// setToken takes tok's values; a refresh that brings no new refresh token
// keeps the old one, as RFC 6749 §6 allows.
func (r *Record) setToken(tok *oauth2.Token) {
	r.AccessToken, r.TokenType, r.Expiry = tok.AccessToken, tok.TokenType, tok.Expiry
	if tok.RefreshToken != "" {
		r.RefreshToken = tok.RefreshToken
	}
	if s, ok := tok.Extra("scope").(string); ok && strings.TrimSpace(s) != "" {
		r.Scopes = strings.Fields(s)
	}
	// Sorted, for listings that read the same from one run to the next.
	slices.Sort(r.Scopes)
}

// storeDoc is the store's file format.
type storeDoc struct {
	Version int      `json:"version"`
	SignIns []Record `json:"sign_ins"`
}

// Store keeps the sign-ins in one JSON file, readable by the user alone
// (mode 0600). Several mcphost processes may use it at once: writes hold
// a lock file and replace the file atomically.
type Store struct {
	// Path is the file; empty means there is nowhere to keep sign-ins,
	// so that signing in fails with a clear error.
	Path string
}

// DefaultStore is the store in the user's state directory
// ($XDG_STATE_HOME/mcphost/oauth.json or ~/.local/state/mcphost/oauth.json,
// ~/Library/Application Support/mcphost/oauth.json on macOS,
// %LOCALAPPDATA%\mcphost\oauth.json on Windows).
func DefaultStore() *Store {
	return &Store{Path: userdirs.Default().StateFile(storeFileName)}
}

// List returns every sign-in, by server and resource.
func (s *Store) List() ([]Record, error) {
	doc, err := s.read()
	return doc.SignIns, err
}

// Find returns the sign-in of server for serverURL: a record of that
// server whose resource has the URL's origin, the one whose resource is
// the longest prefix of the URL when there are several; nil when none.
func (s *Store) Find(server, serverURL string) (*Record, error) {
	doc, err := s.read()
	if err != nil {
		return nil, err
	}
	return find(doc.SignIns, server, serverURL), nil
}

func find(recs []Record, server, serverURL string) *Record {
	u, err := url.Parse(serverURL)
	if err != nil {
		return nil
	}
	var best *Record
	for i := range recs {
		r := &recs[i]
		ru, err := url.Parse(r.Resource)
		if r.Server != server || err != nil || OriginOf(ru) != OriginOf(u) {
			continue
		}
		if best == nil || (strings.HasPrefix(serverURL, r.Resource) && len(r.Resource) > len(best.Resource)) {
			best = r
		}
	}
	if best == nil {
		return nil
	}
	out := *best
	return &out
}

// Save adds r, replacing the sign-in of the same server and resource.
func (s *Store) Save(ctx context.Context, r Record) error {
	return s.update(ctx, func(doc *storeDoc) error {
		doc.SignIns = slices.DeleteFunc(doc.SignIns, func(o Record) bool { return o.Server == r.Server && o.Resource == r.Resource })
		doc.SignIns = append(doc.SignIns, r)
		return nil
	})
}

// Remove forgets every sign-in of server and returns them.
func (s *Store) Remove(ctx context.Context, server string) ([]Record, error) {
	var gone []Record
	err := s.update(ctx, func(doc *storeDoc) error {
		doc.SignIns = slices.DeleteFunc(doc.SignIns, func(o Record) bool {
			if o.Server == server {
				gone = append(gone, o)
				return true
			}
			return false
		})
		if len(gone) == 0 {
			return errNoChange
		}
		return nil
	})
	return gone, err
}

// errNoChange tells update that there is nothing to write.
var errNoChange = errors.New("no change")

// Update changes the sign-in of server and resource under the store's
// lock, so that two processes never refresh one token at once: change
// gets the record as stored now (nil when it is gone) and returns the
// record to store, or nil to leave it as it is.
func (s *Store) Update(ctx context.Context, server, resource string, change func(*Record) (*Record, error)) error {
	return s.update(ctx, func(doc *storeDoc) error {
		i := slices.IndexFunc(doc.SignIns, func(o Record) bool { return o.Server == server && o.Resource == resource })
		var cur *Record
		if i >= 0 {
			c := doc.SignIns[i]
			cur = &c
		}
		next, err := change(cur)
		if err != nil {
			return err
		}
		if next == nil {
			return errNoChange
		}
		if i >= 0 {
			doc.SignIns[i] = *next
		} else {
			doc.SignIns = append(doc.SignIns, *next)
		}
		return nil
	})
}

// update reads, changes and writes the store under its lock.
func (s *Store) update(ctx context.Context, change func(*storeDoc) error) error {
	if s.Path == "" {
		return errors.New("there is no state directory to keep sign-ins in: set HOME or XDG_STATE_HOME")
	}
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return fmt.Errorf("cannot create the state directory: %w", err)
	}
	// Never through a link: one planted at the lock's name would have its
	// target created or locked in the user's name.
	lockPath := s.Path + ".lock"
	lock, err := nofollow.NewLock(lockPath)
	if err != nil {
		return lockError(lockPath, err)
	}
	lctx, cancel := context.WithTimeout(ctx, lockWait)
	defer cancel()
	if ok, err := lock.TryLockContext(lctx, 20*time.Millisecond); !ok {
		if err == nil {
			err = lctx.Err()
		}
		return fmt.Errorf("cannot lock %s: %w", lockPath, err)
	}
	defer lock.Unlock()
	if !nofollow.Locked(lock, lockPath) {
		return lockError(lockPath, nofollow.ErrLink)
	}
	doc, err := s.read()
	if err != nil {
		return err
	}
	if err := change(&doc); err != nil {
		if errors.Is(err, errNoChange) {
			return nil
		}
		return err
	}
	return s.write(doc)
}

// read loads the store; a missing file is an empty store.
func (s *Store) read() (storeDoc, error) {
	doc := storeDoc{Version: 1}
	if s.Path == "" {
		return doc, nil
	}
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return doc, nil
	}
	if err != nil {
		return doc, fmt.Errorf("cannot read the sign-ins in %s: %w", s.Path, err)
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return doc, fmt.Errorf("the sign-ins in %s are damaged (%v): delete the file and sign in again with mcphost auth login", s.Path, err)
	}
	return doc, nil
}

// write replaces the file atomically, readable by the user alone.
func (s *Store) write(doc storeDoc) error {
	doc.Version = 1
	slices.SortFunc(doc.SignIns, func(a, b Record) int {
		if c := strings.Compare(a.Server, b.Server); c != 0 {
			return c
		}
		return strings.Compare(a.Resource, b.Resource)
	})
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("cannot encode the sign-ins: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.Path), storeFileName+".*")
	if err != nil {
		return fmt.Errorf("cannot write the sign-ins: %w", err)
	}
	// CreateTemp makes the file 0600 already; Chmod says so for systems
	// whose umask could differ.
	_ = tmp.Chmod(0o600)
	_, werr := tmp.Write(append(data, '\n'))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cannot write the sign-ins: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.Path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cannot write the sign-ins: %w", err)
	}
	return nil
}

// Origin is where a credential (a token, a server's headers) may go:
// scheme, host and port, as browsers compare origins.
type Origin struct{ scheme, host, port string }

// OriginOf returns u's origin, with the scheme's default port made
// explicit so that "https://h" and "https://h:443" are one origin.
func OriginOf(u *url.URL) Origin {
	o := Origin{scheme: strings.ToLower(u.Scheme), host: strings.ToLower(u.Hostname()), port: u.Port()}
	if o.port == "" {
		switch o.scheme {
		case "http":
			o.port = "80"
		case "https":
			o.port = "443"
		}
	}
	return o
}

// lockError is the error of a lock file that could not be made: for a
// link in its place, what to do about it.
func lockError(lockPath string, err error) error {
	if errors.Is(err, nofollow.ErrLink) {
		return fmt.Errorf("the sign-in store's lock file, %s, is a symbolic link, which mcphost does not write through: delete the link (mcphost makes the file again) and sign in again", lockPath)
	}
	return fmt.Errorf("cannot lock %s: %w", lockPath, err)
}

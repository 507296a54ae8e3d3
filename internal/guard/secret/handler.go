package secret

import (
	"context"
	"fmt"
	"log/slog"
)

// Handler returns a slog.Handler that masks the message and every
// attribute before passing records to next, so that a --debug log never
// shows a configured header or env value.
func (m *Masker) Handler(next slog.Handler) slog.Handler {
	return &handler{next: next, m: m}
}

type handler struct {
	next slog.Handler
	m    *Masker
}

func (h *handler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.next.Enabled(ctx, level)
}

func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, h.m.String(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	masked := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		masked[i] = h.attr(a)
	}
	return &handler{next: h.next.WithAttrs(masked), m: h.m}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{next: h.next.WithGroup(name), m: h.m}
}

// attr masks one attribute. Numbers, durations and times cannot hold a
// configured secret and are kept as they are, so the log stays useful.
func (h *handler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindGroup:
		group := v.Group()
		masked := make([]any, len(group))
		for i, g := range group {
			masked[i] = h.attr(g)
		}
		return slog.Group(a.Key, masked...)
	case slog.KindString:
		if IsSecretKey(a.Key) {
			return slog.String(a.Key, walker(h.m.String).underString(v.String()))
		}
		return slog.String(a.Key, h.m.String(v.String()))
	case slog.KindAny:
		if v.Any() == nil {
			return a
		}
		s := fmt.Sprint(v.Any())
		if IsSecretKey(a.Key) {
			return slog.String(a.Key, walker(h.m.String).underString(s))
		}
		return slog.String(a.Key, h.m.String(s))
	}
	return slog.Attr{Key: a.Key, Value: v}
}

package jobs

import (
	"context"
	"log/slog"
)

// warnings returns log keeping only warnings and errors: River logs each
// job's progress at info level, which the queue's own lines replace.
func warnings(log *slog.Logger) *slog.Logger {
	return slog.New(minLevel{Handler: log.Handler(), min: slog.LevelWarn})
}

// minLevel is a handler dropping records below min.
type minLevel struct {
	slog.Handler
	min slog.Level
}

// Enabled reports whether the record is at min or above and the wrapped
// handler takes it.
func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

// WithAttrs keeps the level filter on the derived handler.
func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{Handler: h.Handler.WithAttrs(attrs), min: h.min}
}

// WithGroup keeps the level filter on the derived handler.
func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{Handler: h.Handler.WithGroup(name), min: h.min}
}

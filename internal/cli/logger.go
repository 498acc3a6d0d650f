package cli

import (
	"io"
	"log/slog"
)

// newLogger returns a logger writing to w in format ("text" or "json") at
// level and above.
func newLogger(w io.Writer, format string, level slog.Level) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

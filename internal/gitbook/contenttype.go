package gitbook

import (
	"net/http"
	"strings"
)

// contentType guesses a file's media type from its extension, then from
// its first bytes. It reads no system table, so the answer is the same
// on every machine.
func contentType(name string, data []byte) string {
	ext := ""
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		ext = strings.ToLower(name[i+1:])
	}
	switch ext {
	case "png":
		return "image/png"
	case "jpg", "jpeg":
		return "image/jpeg"
	case "gif":
		return "image/gif"
	case "webp":
		return "image/webp"
	case "svg":
		return "image/svg+xml"
	case "avif":
		return "image/avif"
	case "ico":
		return "image/x-icon"
	case "pdf":
		return "application/pdf"
	case "zip":
		return "application/zip"
	case "json":
		return "application/json"
	case "yaml", "yml":
		return "application/yaml"
	case "csv":
		return "text/csv"
	case "md":
		return "text/markdown; charset=utf-8"
	case "txt":
		return "text/plain; charset=utf-8"
	case "mp4":
		return "video/mp4"
	case "webm":
		return "video/webm"
	case "mp3":
		return "audio/mpeg"
	case "woff2":
		return "font/woff2"
	}
	return http.DetectContentType(data)
}

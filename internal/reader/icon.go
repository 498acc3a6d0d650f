package reader

import "strings"

// iconGlyph returns a character drawing an icon of the Font Awesome set
// GitBook pages name, for the icons whose meaning a character carries
// (checks, crosses, warnings, arrows); "" for the others, which are not
// drawn: the reader ships no icon font.
func iconGlyph(name string) string {
	name = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(name)), "fa-")
	switch name {
	case "check", "square-check", "circle-check", "check-circle", "badge-check":
		return "✓"
	case "xmark", "x", "times", "close", "square-xmark", "circle-xmark", "times-circle", "ban":
		return "✗"
	case "triangle-exclamation", "circle-exclamation", "exclamation", "warning", "exclamation-triangle":
		return "⚠"
	case "circle-info", "info", "info-circle", "square-info":
		return "ℹ"
	case "circle-question", "question", "question-circle":
		return "?"
	case "arrow-right", "arrow-right-long", "right-long":
		return "→"
	case "arrow-left", "arrow-left-long", "left-long":
		return "←"
	case "arrow-up":
		return "↑"
	case "arrow-down":
		return "↓"
	case "chevron-right", "angle-right":
		return "›"
	case "chevron-left", "angle-left":
		return "‹"
	case "arrow-up-right-from-square", "up-right-from-square", "external-link", "arrow-up-right":
		return "↗"
	case "plus", "circle-plus":
		return "+"
	case "minus", "circle-minus":
		return "−"
	case "star":
		return "★"
	case "heart":
		return "♥"
	case "bolt", "bolt-lightning":
		return "⚡"
	case "gear", "gears", "cog", "cogs":
		return "⚙"
	case "envelope", "envelope-open":
		return "✉"
	case "phone":
		return "☎"
	case "pen", "pencil", "pen-to-square", "edit":
		return "✎"
	case "flag":
		return "⚑"
	case "house", "home":
		return "⌂"
	case "bars", "list":
		return "☰"
	}
	return ""
}

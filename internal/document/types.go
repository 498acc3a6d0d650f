package document

// Block types.
const (
	TypeParagraph       = "paragraph"
	TypeHeading1        = "heading-1"
	TypeHeading2        = "heading-2"
	TypeHeading3        = "heading-3"
	TypeListOrdered     = "list-ordered"
	TypeListUnordered   = "list-unordered"
	TypeListTasks       = "list-tasks"
	TypeListItem        = "list-item"
	TypeDivider         = "divider"
	TypeBlockquote      = "blockquote"
	TypeHint            = "hint"
	TypeIf              = "if"
	TypeImages          = "images"
	TypeImage           = "image"
	TypeFile            = "file"
	TypeDrawing         = "drawing"
	TypeEmbed           = "embed"
	TypeCode            = "code"
	TypeCodeLine        = "code-line"
	TypeMath            = "math"
	TypeExpandable      = "expandable"
	TypeTabs            = "tabs"
	TypeTabsItem        = "tabs-item"
	TypeTable           = "table"
	TypeSwagger         = "swagger"
	TypeOpenAPIOp       = "openapi-operation"
	TypeOpenAPISchemas  = "openapi-schemas"
	TypeOpenAPIWebhook  = "openapi-webhook"
	TypeContentRef      = "content-ref"
	TypeIntegration     = "integration"
	TypeReusableContent = "reusable-content"
	TypeStepper         = "stepper"
	TypeStepperStep     = "stepper-step"
	TypeColumns         = "columns"
	TypeColumn          = "column"
	// TypeUpdates and TypeUpdate are a changelog ({% updates %}) and one
	// dated entry of it; @gitbook/api 0.143.2 has no schema for them.
	TypeUpdates = "updates"
	TypeUpdate  = "update"
	// TypeRaw is Quire's own block for Markdown it does not model (an
	// unknown {% tag %} block, a prompt, an HTML block or comment): data
	// "markdown" holds the source, written back unchanged.
	TypeRaw = "raw"
)

// Inline types.
const (
	InlineLink       = "link"
	InlineImage      = "inline-image"
	InlineEmoji      = "emoji"
	InlineIcon       = "icon"
	InlineExpression = "expression"
	InlineMath       = "inline-math"
	InlineAnnotation = "annotation"
	InlineMention    = "mention"
	InlineButton     = "button"
	// InlineRaw is Quire's own inline for inline HTML it does not model,
	// such as a comment: data "markdown" holds the source.
	InlineRaw = "raw"
)

// isBlockType reports whether typ is a block type of the schema.
func isBlockType(typ string) bool {
	switch typ {
	case TypeParagraph, TypeHeading1, TypeHeading2, TypeHeading3,
		TypeListOrdered, TypeListUnordered, TypeListTasks, TypeListItem,
		TypeDivider, TypeBlockquote, TypeHint, TypeIf, TypeImages, TypeImage,
		TypeFile, TypeDrawing, TypeEmbed, TypeCode, TypeCodeLine, TypeMath,
		TypeExpandable, TypeTabs, TypeTabsItem, TypeTable, TypeSwagger,
		TypeOpenAPIOp, TypeOpenAPISchemas, TypeOpenAPIWebhook, TypeContentRef,
		TypeIntegration, TypeReusableContent, TypeStepper, TypeStepperStep,
		TypeColumns, TypeColumn, TypeUpdates, TypeUpdate, TypeRaw:
		return true
	}
	return false
}

// isInlineType reports whether typ is an inline type of the schema.
func isInlineType(typ string) bool {
	switch typ {
	case InlineLink, InlineImage, InlineEmoji, InlineIcon, InlineExpression,
		InlineMath, InlineAnnotation, InlineMention, InlineButton, InlineRaw:
		return true
	}
	return false
}

// isMarkType reports whether typ is a mark type of the schema.
func isMarkType(typ string) bool {
	switch typ {
	case MarkBold, MarkItalic, MarkCode, MarkKeyboard, MarkStrikethrough,
		MarkColor, MarkSuperscript, MarkSubscript:
		return true
	}
	return false
}

// isVoidBlock reports whether blocks of type typ have no child nodes.
func isVoidBlock(typ string) bool {
	switch typ {
	case TypeDivider, TypeMath, TypeTable, TypeImage, TypeFile, TypeDrawing,
		TypeEmbed, TypeReusableContent, TypeExpandable, TypeContentRef,
		TypeIntegration, TypeSwagger, TypeOpenAPIOp, TypeOpenAPISchemas,
		TypeOpenAPIWebhook, TypeRaw:
		return true
	}
	return false
}

// isVoidInline reports whether inlines of type typ have no child nodes.
func isVoidInline(typ string) bool {
	return typ != InlineLink && typ != InlineAnnotation
}

// isTextBlock reports whether blocks of type typ hold inlines and text
// rather than blocks.
func isTextBlock(typ string) bool {
	switch typ {
	case TypeParagraph, TypeHeading1, TypeHeading2, TypeHeading3, TypeCodeLine:
		return true
	}
	return false
}

// childTypeOf returns the only block type allowed as a child of a block of
// type typ, or "" when the block holds content blocks.
func childTypeOf(typ string) string {
	switch typ {
	case TypeListOrdered, TypeListUnordered, TypeListTasks:
		return TypeListItem
	case TypeCode:
		return TypeCodeLine
	case TypeTabs:
		return TypeTabsItem
	case TypeStepper:
		return TypeStepperStep
	case TypeColumns:
		return TypeColumn
	case TypeImages:
		return TypeImage
	case TypeUpdates:
		return TypeUpdate
	}
	return ""
}

// isChildOnlyType reports whether blocks of type typ may only appear
// inside their specific parent (list items, code lines, tabs items, …).
func isChildOnlyType(typ string) bool {
	switch typ {
	case TypeListItem, TypeCodeLine, TypeTabsItem, TypeStepperStep, TypeColumn, TypeImage, TypeUpdate:
		return true
	}
	return false
}

// headingLevel returns 1, 2 or 3 for heading types and 0 otherwise.
func headingLevel(typ string) int {
	switch typ {
	case TypeHeading1:
		return 1
	case TypeHeading2:
		return 2
	case TypeHeading3:
		return 3
	}
	return 0
}

// headingType returns the heading type for an editor level, clamped to 1–3.
func headingType(level int) string {
	switch {
	case level <= 1:
		return TypeHeading1
	case level == 2:
		return TypeHeading2
	}
	return TypeHeading3
}

// markRank orders marks from outermost to innermost when written.
func markRank(typ string) int {
	switch typ {
	case MarkColor:
		return 0
	case MarkBold:
		return 1
	case MarkItalic:
		return 2
	case MarkStrikethrough:
		return 3
	case MarkSuperscript:
		return 4
	case MarkSubscript:
		return 5
	case MarkKeyboard:
		return 6
	case MarkCode:
		return 8
	}
	return 7
}

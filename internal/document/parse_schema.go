package document

// check validates the data of a block or inline of the given type.
func (v *dataValidator) check(object, typ string) {
	if object == ObjectInline {
		v.checkInline(typ)
		return
	}
	switch typ {
	case TypeParagraph:
		v.only("align")
		v.str("align", false, "start", "center", "end")
	case TypeHeading1, TypeHeading2, TypeHeading3:
		v.str("id", false)
		v.str("align", false, "start", "center", "end")
	case TypeListOrdered:
		v.number("start")
	case TypeListUnordered, TypeListTasks, TypeBlockquote, TypeStepper, TypeExpandable, TypeDivider:
		v.only()
	case TypeListItem:
		v.boolean("checked")
	case TypeCode:
		v.str("syntax", false)
		v.str("title", false)
		v.str("overflow", false, "scroll", "wrap")
		v.boolean("lineNumbers")
		v.boolean("fullWidth")
		v.boolean("expandable")
	case TypeCodeLine:
		v.boolean("highlighted")
	case TypeHint:
		v.str("style", true, "info", "warning", "danger", "success")
		v.str("icon", false)
	case TypeMath:
		v.str("formula", true)
	case TypeTable:
		v.object("view", true)
		v.object("records", true)
		v.object("definition", true)
		v.boolean("fullWidth")
	case TypeIf:
		v.str("expression", true)
	case TypeImages:
		v.str("align", false, "center", "left", "right")
		v.boolean("fullWidth")
		v.boolean("withFrame")
	case TypeImage:
		v.ref("ref", true, RefURL, RefFile)
		v.ref("refDark", false, RefURL, RefFile)
		v.length("width")
		v.length("height")
		v.str("alt", false)
	case TypeFile:
		v.ref("ref", true, RefFile)
		v.str("caption", false)
	case TypeDrawing:
		v.ref("ref", false, RefFile)
	case TypeEmbed:
		v.str("url", true)
		v.ref("ref", false)
		v.boolean("fullWidth")
		v.str("caption", false)
	case TypeContentRef:
		v.ref("ref", true)
	case TypeReusableContent:
		v.ref("ref", true, RefReusableContent)
	case TypeIntegration:
		v.str("integration", true)
		v.str("block", true)
		v.object("props", true)
		v.str("url", false)
		v.boolean("fullWidth")
	case TypeSwagger:
		v.ref("ref", true, RefFile, RefURL)
		v.str("path", true)
		v.str("method", true)
	case TypeOpenAPIOp:
		v.ref("ref", true, RefOpenAPI)
		v.str("path", true)
		v.str("method", true)
	case TypeOpenAPISchemas:
		v.ref("ref", true, RefOpenAPI)
		if _, ok := v.data["schemas"].([]any); !ok {
			v.fail("schemas", "required array")
		}
	case TypeOpenAPIWebhook:
		v.ref("ref", true, RefOpenAPI)
		v.str("name", true)
		v.str("method", true)
	case TypeTabs:
		v.only("fullWidth")
		v.boolean("fullWidth")
	case TypeTabsItem:
		v.str("title", false)
		v.str("icon", false)
	case TypeStepperStep:
		v.str("icon", false)
	case TypeColumns:
		v.boolean("fullWidth")
	case TypeUpdates:
		v.only("format")
		v.str("format", false)
	case TypeUpdate:
		v.str("date", false)
		v.strings("tags")
	case TypeRaw:
		v.only("markdown")
		v.str("markdown", true)
	case TypeColumn:
		v.only("width", "verticalAlignment")
		v.length("width")
		v.str("verticalAlignment", false, "top", "middle", "bottom")
	}
}

func (v *dataValidator) checkInline(typ string) {
	switch typ {
	case InlineLink:
		v.ref("ref", true)
		v.str("title", false)
	case InlineMention:
		v.ref("ref", true)
	case InlineImage:
		v.ref("ref", true, RefURL, RefFile)
		v.ref("refDark", false, RefURL, RefFile)
		v.str("caption", false)
		v.str("alt", false)
		v.str("size", false, "original", "line")
	case InlineEmoji:
		v.str("code", true)
	case InlineIcon:
		v.str("icon", true)
	case InlineExpression:
		v.str("expression", true)
	case InlineMath:
		v.str("formula", true)
	case InlineAnnotation:
		v.only()
	case InlineRaw:
		v.only("markdown")
		v.str("markdown", true)
	case InlineButton:
		v.str("label", true)
		v.str("kind", true, "primary", "secondary")
		v.str("icon", false)
		v.ref("ref", true)
	}
}

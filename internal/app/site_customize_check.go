package app

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"quire/internal/quire"
)

// checkCustomization checks settings against what the API's schema takes,
// read from the same declaration (the struct tags of
// quire.SiteCustomizationSettings): enumerations, patterns, lengths,
// ranges, list sizes and addresses. The first member at fault is an
// invalid-input error naming its JSON path.
func checkCustomization(c *settings) error {
	return checkMembers(reflect.ValueOf(c).Elem(), "")
}

// checkMembers checks the members of a struct at path.
func checkMembers(v reflect.Value, path string) error {
	t := v.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		if sf.Anonymous {
			if err := checkValue(sf, v.Field(i), path, false); err != nil {
				return err
			}
			continue
		}
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		p := name
		if path != "" {
			p = path + "." + name
		}
		if err := checkValue(sf, v.Field(i), p, strings.Contains(opts, "omitempty")); err != nil {
			return err
		}
	}
	return nil
}

// checkValue checks one member, declared by sf, at path; an empty string
// the JSON leaves out (omitempty) is not checked.
func checkValue(sf reflect.StructField, v reflect.Value, path string, omitEmpty bool) error {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return checkValue(sf, v.Elem(), path, false)
	case reflect.String:
		if v.String() == "" && omitEmpty {
			return nil
		}
		return checkString(sf.Tag, v.String(), path)
	case reflect.Int:
		return checkNumber(sf.Tag, v.Int(), path)
	case reflect.Slice:
		if n, err := strconv.Atoi(sf.Tag.Get("minItems")); err == nil && v.Len() < n {
			return quire.Invalid(path, "must have at least %d %s", n, itemNoun(path))
		}
		for i := range v.Len() {
			if err := checkValue(reflect.StructField{}, v.Index(i), fmt.Sprintf("%s[%d]", path, i), false); err != nil {
				return err
			}
		}
	case reflect.Struct:
		// The fonts are a name or a definition, the one that is set.
		switch f := v.Interface().(type) {
		case quire.CustomizationFont:
			return checkFont(reflect.TypeOf(f), f.Name, f.Custom, path)
		case quire.CustomizationMonospaceFont:
			return checkFont(reflect.TypeOf(f), f.Name, f.Custom, path)
		}
		return checkMembers(v, path)
	}
	return nil
}

// checkFont checks a font: the definition when there is one, else the
// name among those the platform provides.
func checkFont(t reflect.Type, name string, custom *quire.CustomizationFontDefinitionInput, path string) error {
	if custom != nil {
		return checkMembers(reflect.ValueOf(custom).Elem(), path)
	}
	f, _ := t.FieldByName("Name")
	return checkString(f.Tag, name, path)
}

// checkString checks a string against its member's tags.
func checkString(tag reflect.StructTag, s, path string) error {
	if e := tag.Get("enum"); e != "" && !slices.Contains(strings.Split(e, ","), s) {
		return quire.Invalid(path, "must be one of %s", strings.ReplaceAll(e, ",", ", "))
	}
	if p := tag.Get("pattern"); p != "" {
		if ok, err := regexp.MatchString(p, s); err != nil || !ok {
			what := tag.Get("patternDescription")
			if what == "" {
				what = "of the form " + p
			}
			return quire.Invalid(path, "must be %s", what)
		}
	}
	n := utf8.RuneCountInString(s)
	if min, err := strconv.Atoi(tag.Get("minLength")); err == nil && n < min {
		return quire.Invalid(path, "must be at least %d characters", min)
	}
	if max, err := strconv.Atoi(tag.Get("maxLength")); err == nil && n > max {
		return quire.Invalid(path, "must be at most %d characters", max)
	}
	if tag.Get("format") == "uri" {
		if msg := urlProblem(s, maxCustomURL); msg != "" {
			return quire.Invalid(path, "%s", msg)
		}
	}
	return nil
}

// checkNumber checks a whole number against its member's range.
func checkNumber(tag reflect.StructTag, n int64, path string) error {
	min, errMin := strconv.ParseInt(tag.Get("minimum"), 10, 64)
	max, errMax := strconv.ParseInt(tag.Get("maximum"), 10, 64)
	if (errMin == nil && n < min) || (errMax == nil && n > max) {
		return quire.Invalid(path, "must be from %s to %s", tag.Get("minimum"), tag.Get("maximum"))
	}
	return nil
}

// itemNoun names an item of the list at path, for a refusal of a list
// too short.
func itemNoun(path string) string {
	switch path[strings.LastIndex(path, ".")+1:] {
	case "fontFaces":
		return "face"
	case "sources":
		return "file"
	}
	return "item"
}

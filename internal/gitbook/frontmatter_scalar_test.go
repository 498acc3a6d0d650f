package gitbook

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestWriteStringValue checks descriptions are written as GitBook's
// exporter writes them (the folded ones are taken from GitBook exports)
// and read back as the same string.
func TestWriteStringValue(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Got issues ? Find answers here !", " Got issues ? Find answers here !"},
		{"Everything you need to know about A Product, from the first steps to the finer points.",
			" >-\n  Everything you need to know about A Product, from the first steps to the finer\n  points."},
		{"Create and send Mailtrap email templates: design with drag-and-drop builder or HTML editor, add Handlebars variables, and integrate via API or SMTP.",
			" >-\n  Create and send Mailtrap email templates: design with drag-and-drop builder or\n  HTML editor, add Handlebars variables, and integrate via API or SMTP."},
		{"Aquí recopilaré información y documentación relacionada con varias preguntas destinadas a la evaluación sobre JavaScript, principalmente conceptos y funciones importantes de este lenguaje.",
			" >-\n  Aquí recopilaré información y documentación relacionada con varias preguntas\n  destinadas a la evaluación sobre JavaScript, principalmente conceptos y\n  funciones importantes de este lenguaje."},
		{"Install it: then run", ` "Install it: then run"`},
		{"Step #1 and a#b", ` "Step #1 and a#b"`},
		{"a#b: c", ` "a#b: c"`},
		{"true", ` "true"`},
		{"yes", ` "yes"`},
		{"2.0", ` "2.0"`},
		{"2024-01-02", ` "2024-01-02"`},
		{"", ` ""`},
		{"- item", ` "- item"`},
		{"[x] done", ` "[x] done"`},
		{"ends with colon:", ` "ends with colon:"`},
		{"  padded  ", ` "  padded  "`},
		{"non\u00a0breaking", ` "non\_breaking"`},
		{"tab\there", ` "tab\there"`},
		{"say \"hi\"", ` say "hi"`},
		{"first\nsecond", " |-\n  first\n  second"},
		{"first\nsecond\n", " |\n  first\n  second"},
		{" indented\nsecond", " |2-\n   indented\n  second"},
		{"Déjà vu — 文档 🚀", " Déjà vu — 文档 🚀"},
	}
	for _, tc := range cases {
		got := writeStringValue(tc.in)
		if got != tc.want {
			t.Errorf("%q written\n%q\nwant\n%q", tc.in, got, tc.want)
			continue
		}
		var back struct {
			D string `yaml:"d"`
		}
		if err := yaml.Unmarshal([]byte("d:"+got+"\n"), &back); err != nil || back.D != tc.in {
			t.Errorf("%q read back as %q (%v)", tc.in, back.D, err)
		}
	}
}

package jsruntime

import (
	"crypto/sha256"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"
	lru "github.com/hashicorp/golang-lru/v2"
)

// moduleName is the variable the transformed bundle assigns its module
// namespace to, local to the function that returns it.
const moduleName = "__quire_module"

// programs caches compiled scripts by the SHA-256 of their source, so
// that the many runs of one integration's script transform and compile
// it once. A compiled goja.Program is immutable and runs in any number
// of runtimes.
type programs struct {
	cache *lru.Cache[[sha256.Size]byte, *goja.Program]
	// codes holds transformed scripts, for runs compiled in a sandbox
	// child.
	codes *lru.Cache[[sha256.Size]byte, string]
}

func newPrograms(size int) *programs {
	cache, err := lru.New[[sha256.Size]byte, *goja.Program](size)
	if err != nil {
		panic(err) // only for a size <= 0, which New never passes
	}
	codes, err := lru.New[[sha256.Size]byte, string](size)
	if err != nil {
		panic(err)
	}
	return &programs{cache: cache, codes: codes}
}

// transformed returns script as transform turns it, from the cache when
// it can.
func (p *programs) transformed(script string) (string, error) {
	key := sha256.Sum256([]byte(script))
	if code, ok := p.codes.Get(key); ok {
		return code, nil
	}
	code, err := transform(script)
	if err != nil {
		return "", err
	}
	p.codes.Add(key, code)
	return code, nil
}

// compile returns script as a goja program whose value is its module
// namespace. Syntax errors are *ScriptError.
func (p *programs) compile(script string) (*goja.Program, error) {
	key := sha256.Sum256([]byte(script))
	if prog, ok := p.cache.Get(key); ok {
		return prog, nil
	}
	code, err := transform(script)
	if err != nil {
		return nil, err
	}
	prog, err := goja.Compile("script.js", code, true)
	if err != nil {
		return nil, &ScriptError{Message: err.Error()}
	}
	p.cache.Add(key, prog)
	return prog, nil
}

// transform turns an ES module into a script: esbuild rewrites it as an
// IIFE assigning the module's exports to moduleName, lowering syntax
// newer than goja parses. A module importing anything is refused by the
// runtime later, as require does not exist.
func transform(script string) (string, error) {
	res := api.Transform(script, api.TransformOptions{
		Loader:     api.LoaderJS,
		Format:     api.FormatIIFE,
		GlobalName: moduleName,
		Platform:   api.PlatformNeutral,
		Target:     api.ES2017,
		Sourcefile: "script.js",
		LogLevel:   api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		msgs := make([]string, 0, len(res.Errors))
		for _, m := range res.Errors {
			if m.Location != nil {
				msgs = append(msgs, m.Location.File+":"+strconv.Itoa(m.Location.Line)+": "+m.Text)
			} else {
				msgs = append(msgs, m.Text)
			}
		}
		return "", &ScriptError{Message: "SyntaxError: " + strings.Join(msgs, "; "), Unloadable: true}
	}
	// The IIFE declares moduleName with var; wrapped in one more function,
	// it stays local and the program's value is the module namespace.
	return "(function () {\n" + string(res.Code) + "return " + moduleName + ";\n})()", nil
}

package adaptive

import (
	lru "github.com/hashicorp/golang-lru/v2"
)

// DefaultConditionsSize is the number of compiled conditions a Conditions
// cache keeps when NewConditions is given no size.
const DefaultConditionsSize = 4096

// Conditions compiles conditions once and keeps the most recently used
// ones, with their compile errors, for the next visitor. It serves any
// number of schemas (a condition is cached per schema document) and is
// safe for concurrent use.
type Conditions struct {
	cache *lru.Cache[conditionKey, compiled]
}

// conditionKey names a condition compiled against one schema document.
type conditionKey struct {
	schema string // the schema's digest
	src    string
}

// compiled is the outcome of compiling one condition.
type compiled struct {
	cond *Condition
	err  error
}

// NewConditions returns a cache holding at most size compiled conditions
// (DefaultConditionsSize when size is 0 or less).
func NewConditions(size int) *Conditions {
	if size <= 0 {
		size = DefaultConditionsSize
	}
	cache, err := lru.New[conditionKey, compiled](size)
	if err != nil {
		panic(err) // only for a size below 1, excluded above
	}
	return &Conditions{cache: cache}
}

// Compile returns the condition compiled against the schema, from the
// cache when it was compiled before. Errors are those of
// Schema.CompileCondition.
func (c *Conditions) Compile(s *Schema, src string) (*Condition, error) {
	key := conditionKey{schema: s.digest, src: src}
	if hit, ok := c.cache.Get(key); ok {
		return hit.cond, hit.err
	}
	cond, err := s.CompileCondition(src)
	c.cache.Add(key, compiled{cond: cond, err: err})
	return cond, err
}

// Evaluate tells whether the condition holds for a visitor with these
// claims; see Condition.Evaluate. A condition that does not compile
// against the schema (the schema changed since it was saved) gives its
// *ConditionError.
func (c *Conditions) Evaluate(s *Schema, src string, claims map[string]any) (bool, error) {
	cond, err := c.Compile(s, src)
	if err != nil {
		return false, err
	}
	return cond.Evaluate(claims)
}

// Len returns the number of conditions the cache holds.
func (c *Conditions) Len() int { return c.cache.Len() }

package sqlstore

import (
	"fmt"
	"strconv"
	"strings"

	"quire/internal/quire"
)

// Failure classifies a database error by what the store should do about
// it.
type Failure int

// Failure kinds.
const (
	// FailOther is any error the store cannot act on.
	FailOther Failure = iota
	// FailUnique is a unique or primary key violation.
	FailUnique
	// FailForeignKey is a foreign key violation.
	FailForeignKey
	// FailRetry is a transient failure (busy database, serialization
	// failure, deadlock) after which the whole transaction may be run
	// again.
	FailRetry
)

// Dialect adapts the shared SQL to one database engine.
type Dialect interface {
	// Rebind rewrites a query written with ? placeholders into the
	// engine's placeholder syntax.
	Rebind(query string) string
	// Classify tells what kind of failure err is, looking through wrapped
	// errors for the driver's own error and its code.
	Classify(err error) Failure
	// LockStatement returns a statement, with its arguments, that waits
	// for and takes an exclusive lock named key until the transaction
	// ends; "" when the engine runs one write transaction at a time
	// anyway, so that holding any write transaction is holding every lock.
	LockStatement(key string) (string, []any)
	// Engine names the engine.
	Engine() Engine
}

// RebindDollar rewrites ? placeholders as $1, $2, … for engines that number
// their parameters. Question marks inside quoted strings and identifiers
// are left alone.
func RebindDollar(query string) string {
	if !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	var quote byte
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// conflict translates a unique violation into ECONFLICT with msg, a
// foreign key violation into EINVALID, and wraps anything else with the
// operation's name.
func (s *Store) conflict(op string, err error, msg string) error {
	switch s.dialect.Classify(err) {
	case FailUnique:
		return &quire.Error{Code: quire.ECONFLICT, Message: msg, Err: err}
	case FailForeignKey:
		return &quire.Error{Code: quire.EINVALID, Message: "refers to a record that does not exist", Err: err}
	}
	return wrap(op, err)
}

// wrap adds the operation's name to an unexpected error. Domain errors and
// nil pass through unchanged.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*quire.Error); ok {
		return err
	}
	return fmt.Errorf("sqlstore: %s: %w", op, err)
}

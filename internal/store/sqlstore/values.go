package sqlstore

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"quire/internal/quire"
)

// Timestamps are stored as BIGINT unix milliseconds in every engine and
// read back as UTC times.

// millis converts a time to stored milliseconds.
func millis(t time.Time) int64 { return t.UnixMilli() }

// fromMillis converts stored milliseconds to a UTC time.
func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// nullMillis converts an optional time to a stored value (nil for NULL).
func nullMillis(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UnixMilli()
}

// fromNullMillis converts an optional stored time.
func fromNullMillis(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := fromMillis(v.Int64)
	return &t
}

// nullString stores "" as NULL: roles where "" means guest or none, and
// default levels where "" is DefaultNone.
func nullString[S ~string](v S) any {
	if v == "" {
		return nil
	}
	return string(v)
}

// roleRank is a SQL expression ranking the role held in col, so that the
// highest role can be found with MAX: admin 6 down to read 1, anything else
// 0. Roles are compared by rank, never as text.
func roleRank(col string) string {
	return "CASE " + col +
		" WHEN 'admin' THEN 6 WHEN 'create' THEN 5 WHEN 'edit' THEN 4" +
		" WHEN 'review' THEN 3 WHEN 'comment' THEN 2 WHEN 'read' THEN 1 ELSE 0 END"
}

// roleOfRank inverts roleRank.
func roleOfRank(rank int64) quire.Role {
	roles := quire.Roles()
	if rank < 1 || rank > int64(len(roles)) {
		return ""
	}
	return roles[int64(len(roles))-rank]
}

// mergeRulesJSON is the stored form of quire.MergeRules.
type mergeRulesJSON struct {
	Type  string          `json:"type"`
	Rules []mergeRuleJSON `json:"rules,omitempty"`
}

// mergeRuleJSON is the stored form of quire.MergeRule.
type mergeRuleJSON struct {
	Rule       string   `json:"rule"`
	Users      []string `json:"users,omitempty"`
	Expression string   `json:"expression,omitempty"`
}

// encodeMergeRules renders merge rules as stored JSON text.
func encodeMergeRules(m quire.MergeRules) string {
	v := mergeRulesJSON{Type: string(m.Type)}
	for _, r := range m.Rules {
		v.Rules = append(v.Rules, mergeRuleJSON{Rule: string(r.Rule), Users: r.Users, Expression: r.Expression})
	}
	b, _ := json.Marshal(v) // strings only: cannot fail
	return string(b)
}

// decodeMergeRules reads stored merge rules.
func decodeMergeRules(s string) (quire.MergeRules, error) {
	// Most configurations carry no rules; their stored forms are fixed.
	switch s {
	case `{"type":"inherit"}`:
		return quire.MergeRules{Type: quire.MergeRulesInherit}, nil
	case `{"type":"none"}`:
		return quire.MergeRules{Type: quire.MergeRulesNone}, nil
	}
	var v mergeRulesJSON
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return quire.MergeRules{}, fmt.Errorf("decode merge rules: %w", err)
	}
	m := quire.MergeRules{Type: quire.MergeRulesType(v.Type)}
	for _, r := range v.Rules {
		m.Rules = append(m.Rules, quire.MergeRule{Rule: quire.MergeRuleKind(r.Rule), Users: r.Users, Expression: r.Expression})
	}
	return m, nil
}

// encodeStrings renders a string list as stored JSON text; nil is [].
func encodeStrings(v []string) string {
	if v == nil {
		v = []string{}
	}
	b, _ := json.Marshal(v) // strings only: cannot fail
	return string(b)
}

// decodeStrings reads a stored string list; an empty one is nil.
func decodeStrings(s string) ([]string, error) {
	var v []string
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, fmt.Errorf("decode string list: %w", err)
	}
	if len(v) == 0 {
		return nil, nil
	}
	return v, nil
}

// inList is a condition that column is one of ids, and its one argument:
// the ids as a JSON array, so that a list of any length is one bound
// value (a list of placeholders stops at the engine's limit on them).
func (s *Store) inList(column string, ids []string) (string, any, error) {
	b, err := json.Marshal(ids)
	if err != nil {
		return "", nil, err
	}
	if s.dialect.Engine() == EnginePostgres {
		return column + " IN (SELECT jsonb_array_elements_text(CAST(? AS jsonb)))", string(b), nil
	}
	return column + " IN (SELECT value FROM json_each(?))", string(b), nil
}

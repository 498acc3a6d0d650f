package quire

// Role is a member's role in an organization, or a level of access on a
// piece of content. Roles are ordered: each grants everything the ones
// below it grant.
type Role string

// The roles, from most to least powerful.
const (
	RoleAdmin   Role = "admin"   // administers content, creates and deletes spaces
	RoleCreate  Role = "create"  // creates content
	RoleEdit    Role = "edit"    // edits live content or change requests
	RoleReview  Role = "review"  // reviews content
	RoleComment Role = "comment" // reads content and takes part in discussions
	RoleRead    Role = "read"    // reads only
)

// Roles lists every role from most to least powerful.
func Roles() []Role {
	return []Role{RoleAdmin, RoleCreate, RoleEdit, RoleReview, RoleComment, RoleRead}
}

// Level is a comparable access level. LevelNone sees nothing; LevelGuest is
// a member of an organization without a role, who sees only what was shared
// with them.
type Level int

// Access levels, from nothing to admin.
const (
	LevelNone Level = iota
	LevelGuest
	LevelRead
	LevelComment
	LevelReview
	LevelEdit
	LevelCreate
	LevelAdmin
)

// Level returns the access level the role grants; an unknown role grants
// nothing.
func (r Role) Level() Level {
	switch r {
	case RoleAdmin:
		return LevelAdmin
	case RoleCreate:
		return LevelCreate
	case RoleEdit:
		return LevelEdit
	case RoleReview:
		return LevelReview
	case RoleComment:
		return LevelComment
	case RoleRead:
		return LevelRead
	}
	return LevelNone
}

// Valid reports whether r is one of the six roles.
func (r Role) Valid() bool { return r.Level() != LevelNone }

// Role returns the role a level corresponds to, or "" for none and guest.
func (l Level) Role() Role {
	for _, r := range Roles() {
		if r.Level() == l {
			return r
		}
	}
	return ""
}

// String names the level.
func (l Level) String() string {
	switch l {
	case LevelNone:
		return "none"
	case LevelGuest:
		return "guest"
	}
	return string(l.Role())
}

// MaxLevel returns the highest of the given levels.
func MaxLevel(levels ...Level) Level {
	m := LevelNone
	for _, l := range levels {
		if l > m {
			m = l
		}
	}
	return m
}

// DefaultLevel is the access every member of an organization gets on a
// space or collection: a role, DefaultNone (nobody beyond explicit grants,
// sent as JSON null), or DefaultInherit (whatever the parent grants).
type DefaultLevel string

// Special default levels.
const (
	DefaultInherit DefaultLevel = "inherit"
	DefaultNone    DefaultLevel = ""
)

// Role returns the role of a concrete default level, or "" for inherit and
// none.
func (d DefaultLevel) Role() Role {
	if r := Role(d); r.Valid() {
		return r
	}
	return ""
}

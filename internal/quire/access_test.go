package quire

import "testing"

func TestFactsLevel(t *testing.T) {
	cases := []struct {
		name string
		f    Facts
		want Level
	}{
		{"non-member sees nothing", Facts{Grant: RoleAdmin, Defaults: []DefaultLevel{"admin"}}, LevelNone},
		{"org role", Facts{Member: true, OrgRole: RoleEdit, Defaults: []DefaultLevel{DefaultInherit}}, LevelEdit},
		{"space default raises", Facts{Member: true, OrgRole: RoleRead, Defaults: []DefaultLevel{"edit"}}, LevelEdit},
		{"inherit walks to collection", Facts{Member: true, OrgRole: RoleRead, Defaults: []DefaultLevel{DefaultInherit, "comment"}}, LevelComment},
		{"inherit walks to organization", Facts{Member: true, OrgRole: RoleRead, Defaults: []DefaultLevel{DefaultInherit, DefaultInherit}, OrgDefault: RoleReview}, LevelReview},
		{"none stops the walk", Facts{Member: true, OrgRole: RoleRead, Defaults: []DefaultLevel{DefaultNone, "admin"}, OrgDefault: RoleAdmin}, LevelRead},
		{"team grant raises", Facts{Member: true, OrgRole: RoleRead, Grant: RoleCreate, Defaults: []DefaultLevel{DefaultNone}}, LevelCreate},
		{"org role beats lower default", Facts{Member: true, OrgRole: RoleAdmin, Defaults: []DefaultLevel{"read"}}, LevelAdmin},
		{"guest gets grants only", Facts{Member: true, Grant: RoleComment, Defaults: []DefaultLevel{"admin"}, OrgDefault: RoleAdmin}, LevelComment},
		{"guest without grant", Facts{Member: true, Defaults: []DefaultLevel{"admin"}}, LevelGuest},
		{"disabled admin sees nothing", Facts{Member: true, Disabled: true, OrgRole: RoleAdmin, Defaults: []DefaultLevel{DefaultInherit}, OrgDefault: RoleRead}, LevelNone},
		{"disabled member's grants give nothing", Facts{Member: true, Disabled: true, OrgRole: RoleRead, Grant: RoleEdit, Defaults: []DefaultLevel{"comment"}}, LevelNone},
		{"disabled guest sees nothing", Facts{Member: true, Disabled: true, Grant: RoleComment, Defaults: []DefaultLevel{DefaultNone}}, LevelNone},
	}
	for _, c := range cases {
		if got := c.f.Level(); got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

func TestRoleOrder(t *testing.T) {
	roles := Roles()
	for i := 1; i < len(roles); i++ {
		if roles[i-1].Level() <= roles[i].Level() {
			t.Errorf("%s should outrank %s", roles[i-1], roles[i])
		}
		if roles[i].Level().Role() != roles[i] {
			t.Errorf("level of %s does not map back", roles[i])
		}
	}
	if Role("owner").Valid() || Role("").Valid() {
		t.Error("unknown roles must not be valid")
	}
}

func TestSpacePermissionsFollowLevel(t *testing.T) {
	read, edit, admin := SpacePermissionsFor(LevelRead), SpacePermissionsFor(LevelEdit), SpacePermissionsFor(LevelAdmin)
	if !read.View || read.Comment || read.Edit {
		t.Errorf("read: %+v", read)
	}
	if !edit.Edit || !edit.Comment || !edit.Merge || edit.Admin {
		t.Errorf("edit: %+v", edit)
	}
	if !admin.Admin || !admin.InstallIntegration {
		t.Errorf("admin: %+v", admin)
	}
	if g := SpacePermissionsFor(LevelGuest); g.View {
		t.Errorf("guest without grant must not view: %+v", g)
	}
}

func TestCommentPermissions(t *testing.T) {
	for _, c := range []struct {
		level  Level
		author bool
		want   CommentPermissions
	}{
		{LevelRead, false, CommentPermissions{View: true}},
		{LevelRead, true, CommentPermissions{View: true}},
		{LevelComment, false, CommentPermissions{View: true, Reply: true}},
		{LevelComment, true, CommentPermissions{View: true, Edit: true, Reply: true, Delete: true}},
		{LevelCreate, false, CommentPermissions{View: true, Reply: true}},
		{LevelAdmin, false, CommentPermissions{View: true, Reply: true, Delete: true}},
		{LevelAdmin, true, CommentPermissions{View: true, Edit: true, Reply: true, Delete: true}},
	} {
		if got := CommentPermissionsFor(c.level, c.author); got != c.want {
			t.Errorf("%s, author %v: %+v, want %+v", c.level, c.author, got, c.want)
		}
	}
}

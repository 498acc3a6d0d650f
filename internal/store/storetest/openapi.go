package storetest

import (
	"testing"
	"time"

	"quire/internal/quire"
)

func openAPITests() []test {
	return []test{
		{"openapi/create, read, list, update by generation and delete", func(t *testing.T, f *fixture) {
			o := f.org("Docs")
			other := f.org("Other")
			now := f.tick()
			a := &quire.OpenAPISpec{ID: quire.NewID(), OrgID: o.ID, Slug: "pets", SourceURL: "https://example.com/openapi.yaml",
				Visibility: quire.OpenAPIPrivate, State: quire.OpenAPIPending, Generation: 1, CreatedAt: now, UpdatedAt: now}
			must(t, f.st.CreateOpenAPISpec(ctx(t), a))
			got, err := f.st.OpenAPISpec(ctx(t), o.ID, "pets")
			must(t, err)
			equal(t, "spec", *got, *a)
			got, err = f.st.OpenAPISpecByID(ctx(t), a.ID)
			must(t, err)
			equal(t, "spec by id", *got, *a)
			_, err = f.st.OpenAPISpec(ctx(t), other.ID, "pets")
			wantCode(t, err, quire.ENOTFOUND)

			dup := *a
			dup.ID = quire.NewID()
			wantCode(t, f.st.CreateOpenAPISpec(ctx(t), &dup), quire.ECONFLICT)
			dup.OrgID = other.ID
			must(t, f.st.CreateOpenAPISpec(ctx(t), &dup))

			b := &quire.OpenAPISpec{ID: quire.NewID(), OrgID: o.ID, Slug: "users", SourceText: "openapi: 3.1.0",
				Visibility: quire.OpenAPIPublic, State: quire.OpenAPIPending, Generation: 1, CreatedAt: f.tick(), UpdatedAt: now}
			b.UpdatedAt = b.CreatedAt
			must(t, f.st.CreateOpenAPISpec(ctx(t), b))
			page, err := f.st.OpenAPISpecs(ctx(t), o.ID, quire.Page{Limit: 1})
			must(t, err)
			equal(t, "first page", len(page.Items) == 1 && page.Items[0].ID == a.ID && page.Count == 2 && page.Next != "", true)
			page, err = f.st.OpenAPISpecs(ctx(t), o.ID, quire.Page{Limit: 1, Cursor: page.Next})
			must(t, err)
			equal(t, "second page", len(page.Items) == 1 && page.Items[0].ID == b.ID && page.Next == "", true)

			bySlug, err := f.st.OpenAPISpecsBySlug(ctx(t), o.ID, []string{"pets", "users", "gone"})
			must(t, err)
			equal(t, "by slug", len(bySlug) == 2 && bySlug["pets"].ID == a.ID && bySlug["users"].ID == b.ID, true)
			bySlug, err = f.st.OpenAPISpecsBySlug(ctx(t), other.ID, []string{"users"})
			must(t, err)
			equal(t, "by slug in another organization", len(bySlug), 0)

			done := f.tick()
			a.State, a.ErrorCode, a.LastProcessedAt, a.CheckedAt, a.ETag = quire.OpenAPIComplete, quire.OpenAPIParseError, &done, done, `"x"`
			a.Errors = []quire.OpenAPIProblem{{Message: "openapi.yaml line 3: bad", Code: "syntax", File: "openapi.yaml", Line: 3, Pointer: "/paths"}}
			ok, err := f.st.UpdateOpenAPISpec(ctx(t), a, 2)
			must(t, err)
			equal(t, "update at another generation", ok, false)
			ok, err = f.st.UpdateOpenAPISpec(ctx(t), a, 1)
			must(t, err)
			equal(t, "update", ok, true)
			got, err = f.st.OpenAPISpecByID(ctx(t), a.ID)
			must(t, err)
			equal(t, "updated spec", *got, *a)

			due, err := f.st.OpenAPISpecsDue(ctx(t), done.Add(time.Second), 10)
			must(t, err)
			equal(t, "due", len(due), 3) // a checked before, dup never checked, b never completed
			due, err = f.st.OpenAPISpecsDue(ctx(t), done, 10)
			must(t, err)
			equal(t, "due before the check", len(due), 2)

			removed, err := f.st.DeleteOpenAPISpec(ctx(t), o.ID, "pets")
			must(t, err)
			equal(t, "removed", removed, true)
			removed, err = f.st.DeleteOpenAPISpec(ctx(t), o.ID, "pets")
			must(t, err)
			equal(t, "removed again", removed, false)
			_, err = f.st.UpdateOpenAPISpec(ctx(t), a, -1)
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"openapi/versions newest first, with their files", func(t *testing.T, f *fixture) {
			o := f.org("Docs")
			now := f.tick()
			s := &quire.OpenAPISpec{ID: quire.NewID(), OrgID: o.ID, Slug: "pets", SourceText: "x",
				Visibility: quire.OpenAPIPrivate, State: quire.OpenAPIPending, Generation: 1, CreatedAt: now, UpdatedAt: now}
			must(t, f.st.CreateOpenAPISpec(ctx(t), s))
			var ids []string
			for i := 0; i < 3; i++ {
				v := &quire.OpenAPIVersion{ID: quire.NewID(), SpecID: s.ID, Hash: "h" + string(rune('a'+i)), Main: "openapi.yaml",
					Files: map[string]string{"openapi.yaml": "openapi: 3.1.0", "schemas/pet.yaml": "type: object"}, CreatedAt: f.tick()}
				must(t, f.st.AddOpenAPIVersion(ctx(t), v))
				ids = append(ids, v.ID)
				got, err := f.st.OpenAPIVersion(ctx(t), s.ID, v.ID)
				must(t, err)
				equal(t, "version", *got, *v)
			}
			l, err := f.st.OpenAPIVersions(ctx(t), s.ID, quire.Page{Limit: 2})
			must(t, err)
			equal(t, "first page", len(l.Items) == 2 && l.Items[0].ID == ids[2] && l.Items[1].ID == ids[1] && l.Count == 3, true)
			equal(t, "no files in lists", l.Items[0].Files == nil, true)
			l, err = f.st.OpenAPIVersions(ctx(t), s.ID, quire.Page{Limit: 2, Cursor: l.Next})
			must(t, err)
			equal(t, "second page", len(l.Items) == 1 && l.Items[0].ID == ids[0] && l.Next == "", true)
			_, err = f.st.OpenAPIVersion(ctx(t), s.ID, "nope")
			wantCode(t, err, quire.ENOTFOUND)
			_, err = f.st.DeleteOpenAPISpec(ctx(t), o.ID, "pets")
			must(t, err)
			_, err = f.st.OpenAPIVersion(ctx(t), s.ID, ids[0])
			wantCode(t, err, quire.ENOTFOUND)
		}},
	}
}

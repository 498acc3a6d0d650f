package storetest

import (
	"testing"
	"time"

	"quire/internal/quire"
)

func translationTests() []test {
	return []test{
		{"translations/create, read, list, put and delete", func(t *testing.T, f *fixture) {
			o := f.org("Docs")
			src := f.space(o, "", "a0")
			target := f.space(o, "", "a1")
			at := time.UnixMilli(1_700_000_000_123).UTC()
			tr := &quire.Translation{ID: quire.NewID(), OrgID: o.ID, SourceSpace: src.ID, SourceLanguage: "en", Language: "fr",
				Instructions: []byte(`{"object":"document","data":{},"nodes":[]}`), TargetSpace: target.ID,
				CreatedBy: "u1", CreatedAt: at, UpdatedAt: at}
			must(t, f.st.CreateTranslation(ctx(t), tr))
			got, err := f.st.Translation(ctx(t), o.ID, tr.ID)
			must(t, err)
			equal(t, "created", *got, *tr)

			_, err = f.st.Translation(ctx(t), "other-org", tr.ID)
			wantCode(t, err, quire.ENOTFOUND)
			dup := *tr
			dup.ID = quire.NewID()
			wantCode(t, f.st.CreateTranslation(ctx(t), &dup), quire.ECONFLICT)

			de := &quire.Translation{ID: quire.NewID(), OrgID: o.ID, SourceSpace: src.ID, SourceLanguage: "en", Language: "de",
				TargetSpace: target.ID, CreatedAt: at.Add(time.Second), UpdatedAt: at.Add(time.Second)}
			must(t, f.st.CreateTranslation(ctx(t), de))

			tr.State, tr.SourceRevision, tr.ResultRevision, tr.Error = quire.TranslationIdle, "r1", "r2", "engine down"
			tr.EditedPages, tr.TranslatedPages = []string{"p1"}, []string{"p1", "p2"}
			tr.Runs, tr.TotalWords, tr.TotalDuration, tr.LatestDuration, tr.LatestPages, tr.LatestWords = 2, 300, 4000, 1500, 2, 120
			tr.Instructions, tr.UpdatedAt = nil, at.Add(time.Minute)
			must(t, f.st.PutTranslation(ctx(t), tr))
			got, err = f.st.Translation(ctx(t), o.ID, tr.ID)
			must(t, err)
			equal(t, "put", *got, *tr)

			de.Language = "fr"
			wantCode(t, f.st.PutTranslation(ctx(t), de), quire.ECONFLICT)

			first, err := f.st.Translations(ctx(t), o.ID, quire.Page{Limit: 1})
			must(t, err)
			equal(t, "count", first.Count, 2)
			if len(first.Items) != 1 || first.Items[0].ID != tr.ID || first.Next == "" {
				t.Fatalf("first page: %+v", first)
			}
			second, err := f.st.Translations(ctx(t), o.ID, quire.Page{Cursor: first.Next, Limit: 1})
			must(t, err)
			if len(second.Items) != 1 || second.Items[0].ID != de.ID || second.Next != "" {
				t.Fatalf("second page: %+v", second)
			}

			removed, err := f.st.DeleteTranslation(ctx(t), o.ID, tr.ID)
			must(t, err)
			equal(t, "removed", removed, true)
			removed, err = f.st.DeleteTranslation(ctx(t), o.ID, tr.ID)
			must(t, err)
			equal(t, "removed again", removed, false)
			gone := *tr
			wantCode(t, f.st.PutTranslation(ctx(t), &gone), quire.ENOTFOUND)
		}},
	}
}

package httpapi

import (
	"bytes"
	"context"
	"encoding/json"

	"quire/internal/quire"
	"quire/internal/service"
)

// translationSourceJSON is the TranslationSource object.
type translationSourceJSON struct {
	Space    string `json:"space" minLength:"1" maxLength:"64" doc:"ID of the source space"`
	Language string `json:"language" enum:"en,fr,de,es,it,pt,pt-br,ru,ja,zh,yue,ko,ar,hi,nl,pl,tr,sv,no,da,fi,el,cs,hu,ro,th,vi,id,ms,he,uk,sk,bg,hr,lt,lv,et,sl" doc:"Language of the source space"`
}

// translationResultJSON is the TranslationResult object.
type translationResultJSON struct {
	Space    string `json:"space" doc:"ID of the space holding the translation"`
	Revision string `json:"revision" doc:"ID of the revision the last run made, or the target's first one before any run"`
}

// translationStatsJSON are the run statistics of a translation.
type translationStatsJSON struct {
	Runs              int   `json:"runs" doc:"Runs that completed"`
	TotalWords        int   `json:"totalWords"`
	TotalPages        int   `json:"totalPages" doc:"Pages translated at least once"`
	TotalDuration     int64 `json:"totalDuration" doc:"Seconds"`
	LatestRunDuration int64 `json:"latestRunDuration" doc:"Seconds"`
	LatestPages       int   `json:"latestPages"`
	LatestWords       int   `json:"latestWords"`
}

// translationPermissions are the caller's flags on a translation.
type translationPermissions struct {
	View bool `json:"view"`
	Edit bool `json:"edit"`
}

// translationJSON is the Translation object.
type translationJSON struct {
	Object       string                 `json:"object" enum:"translation"`
	ID           string                 `json:"id"`
	Status       string                 `json:"status" enum:"pending,running,completed" doc:"pending until a run translated the source's current content, running during a run"`
	Source       translationSourceJSON  `json:"source"`
	Language     string                 `json:"language" enum:"en,fr,de,es,it,pt,pt-br,ru,ja,zh,yue,ko,ar,hi,nl,pl,tr,sv,no,da,fi,el,cs,hu,ro,th,vi,id,ms,he,uk,sk,bg,hr,lt,lv,et,sl"`
	Instructions json.RawMessage        `json:"instructions" doc:"Rich-text document of style rules for the engine"`
	Result       *translationResultJSON `json:"result,omitempty"`
	CreatedAt    string                 `json:"createdAt" format:"date-time"`
	UpdatedAt    string                 `json:"updatedAt" format:"date-time"`
	Stats        translationStatsJSON   `json:"stats"`
	Permissions  translationPermissions `json:"permissions"`
	URLs         locURLs                `json:"urls"`
	Error        string                 `json:"error,omitempty" doc:"Why the last run failed"`
	EditedPages  []string               `json:"editedPages,omitempty" doc:"Target pages the last run left alone because they were edited by hand since the run before"`
}

// emptyDocument stands for instructions that were never given.
const emptyDocument = `{"object":"document","data":{},"nodes":[]}`

// seconds renders milliseconds as whole seconds, rounded.
func seconds(ms int64) int64 { return (ms + 500) / 1000 }

// translationOut renders a translation for a caller at a level in its
// organization.
func (s *Server) translationOut(v *service.TranslationView, l quire.Level) translationJSON {
	tr := v.Translation
	instr := json.RawMessage(emptyDocument)
	if tr.Instructions != nil {
		instr = json.RawMessage(tr.Instructions)
	}
	out := translationJSON{Object: "translation", ID: tr.ID, Status: v.Status(),
		Source:   translationSourceJSON{Space: tr.SourceSpace, Language: tr.SourceLanguage},
		Language: tr.Language, Instructions: instr,
		Result:    &translationResultJSON{Space: tr.TargetSpace, Revision: tr.ResultRevision},
		CreatedAt: timestamp(tr.CreatedAt), UpdatedAt: timestamp(tr.UpdatedAt),
		Stats: translationStatsJSON{Runs: tr.Runs, TotalWords: tr.TotalWords, TotalPages: len(tr.TranslatedPages),
			TotalDuration: seconds(tr.TotalDuration), LatestRunDuration: seconds(tr.LatestDuration),
			LatestPages: tr.LatestPages, LatestWords: tr.LatestWords},
		Permissions: translationPermissions{View: l >= quire.LevelRead, Edit: l >= quire.LevelCreate},
		URLs:        locURLs{Location: s.urls.api("orgs", tr.OrgID, "translations", tr.ID)},
		Error:       tr.Error, EditedPages: tr.EditedPages}
	return out
}

// TranslationPath names a translation.
type TranslationPath struct {
	OrgPath
	TranslationID string `path:"translationId"`
}

// instructionsIn reads the instructions member: absent or null is none.
func instructionsIn(raw json.RawMessage) []byte {
	if len(raw) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil
	}
	return raw
}

func (s *Server) listTranslations(ctx context.Context, in *struct {
	OrgPath
	ListParams
}) (*body[listOf[translationJSON]], error) {
	svc, err := s.translations.get()
	if err != nil {
		return nil, err
	}
	l, err := svc.List(ctx, in.OrganizationID, in.page())
	if err != nil {
		return nil, err
	}
	lvl := levelFrom(ctx)
	return reply(listJSON(l, func(v *service.TranslationView) translationJSON { return s.translationOut(v, lvl) })), nil
}

func (s *Server) createTranslation(ctx context.Context, in *struct {
	OrgPath
	Body struct {
		Source       translationSourceJSON `json:"source"`
		Language     string                `json:"language" enum:"en,fr,de,es,it,pt,pt-br,ru,ja,zh,yue,ko,ar,hi,nl,pl,tr,sv,no,da,fi,el,cs,hu,ro,th,vi,id,ms,he,uk,sk,bg,hr,lt,lv,et,sl" doc:"Language to translate into"`
		Instructions json.RawMessage       `json:"instructions,omitempty" doc:"Rich-text document of style rules for the engine"`
	}
}) (*body[translationJSON], error) {
	svc, err := s.translations.get()
	if err != nil {
		return nil, err
	}
	b := in.Body
	v, err := svc.Create(ctx, userFrom(ctx), in.OrganizationID, service.TranslationInput{SourceSpace: b.Source.Space,
		SourceLanguage: b.Source.Language, Language: &b.Language, Instructions: instructionsIn(b.Instructions)})
	if err != nil {
		return nil, err
	}
	return reply(s.translationOut(v, levelFrom(ctx))), nil
}

func (s *Server) getTranslation(ctx context.Context, in *TranslationPath) (*body[translationJSON], error) {
	svc, err := s.translations.get()
	if err != nil {
		return nil, err
	}
	v, err := svc.Get(ctx, in.OrganizationID, in.TranslationID)
	if err != nil {
		return nil, err
	}
	return reply(s.translationOut(v, levelFrom(ctx))), nil
}

func (s *Server) updateTranslation(ctx context.Context, in *struct {
	TranslationPath
	Body struct {
		Instructions json.RawMessage `json:"instructions" doc:"Rich-text document of style rules for the engine; null removes them"`
		Language     string          `json:"language,omitempty" enum:"en,fr,de,es,it,pt,pt-br,ru,ja,zh,yue,ko,ar,hi,nl,pl,tr,sv,no,da,fi,el,cs,hu,ro,th,vi,id,ms,he,uk,sk,bg,hr,lt,lv,et,sl" doc:"Language to translate into; a new one has the next run translate every page again"`
	}
}) (*body[translationJSON], error) {
	svc, err := s.translations.get()
	if err != nil {
		return nil, err
	}
	upd := service.TranslationInput{Instructions: instructionsIn(in.Body.Instructions)}
	if in.Body.Language != "" {
		upd.Language = &in.Body.Language
	}
	v, err := svc.Update(ctx, in.OrganizationID, in.TranslationID, upd)
	if err != nil {
		return nil, err
	}
	return reply(s.translationOut(v, levelFrom(ctx))), nil
}

func (s *Server) deleteTranslation(ctx context.Context, in *TranslationPath) (*statusOnly, error) {
	svc, err := s.translations.get()
	if err != nil {
		return nil, err
	}
	ok, err := svc.Delete(ctx, in.OrganizationID, in.TranslationID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}

func (s *Server) runTranslation(ctx context.Context, in *TranslationPath) (*statusOnly, error) {
	svc, err := s.translations.get()
	if err != nil {
		return nil, err
	}
	if err := svc.Run(ctx, userFrom(ctx), in.OrganizationID, in.TranslationID); err != nil {
		return nil, err
	}
	return noContent(), nil
}

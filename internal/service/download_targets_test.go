package service

import (
	"testing"

	"quire/internal/document"
)

func TestDownloadTargets(t *testing.T) {
	t.Parallel()
	d := downloadTargets{spaceID: "space1"}
	link := DownloadLink{SpaceID: "space1", RevisionID: "rev1", FileID: "file1", Name: "a b.png", Expires: 9, Signature: "sig"}
	for target, want := range map[string]string{
		"https://docs.example/v1/" + link.Path() + "?" + link.Query():      "file1",
		"https://docs.example/base/v1/" + link.Path() + "?" + link.Query(): "file1",
		"/v1/" + link.Path(): "file1",
		"https://elsewhere.example/v1/downloads/space1/rev9/file2/x.png":      "file2",
		"https://docs.example/v1/downloads/space2/rev1/file1/a.png?expires=9": "",
		"https://docs.example/v1/downloads/space1/rev1/file1":                 "",
		"https://docs.example/v2/downloads/space1/rev1/file1/a.png":           "",
		"https://docs.example/v1/spaces/space1/revisions/rev1/files/file1":    "",
		"file1":           "",
		"%zz/downloads/x": "",
	} {
		for _, use := range []document.TargetUse{document.UseImage, document.UseFile, document.UseLink} {
			ref, ok := d.RefForTarget(target, use)
			switch {
			case want == "" && ok:
				t.Errorf("%s: mapped to %+v, want the default", target, ref)
			case want != "" && (!ok || ref != document.Ref{Kind: document.RefFile, File: want}):
				t.Errorf("%s: %+v %v, want file %s", target, ref, ok, want)
			}
		}
		if _, ok := d.RefForTarget(target, document.UseMention); ok {
			t.Errorf("%s: a mention mapped to a file", target)
		}
	}
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
)

// The superuser the peer benchmark creates in PocketBase, and the
// collection its records go in.
const (
	pbEmail      = "bench@peers.example"
	pbPassword   = "bench-peers-password"
	pbCollection = "spaces"
)

// peerAPI is where one server answers the cases of the peer benchmark.
type peerAPI struct {
	base    string
	token   string // Quire's API token; empty for public requests
	records string // prefix of a record's path, the id follows
	create  string // path records are created at
	list    string // path of the first page of 100 records
	created int    // status answering a create
}

// target returns a GET of the paths with a's credentials.
func (a peerAPI) target(paths ...string) target {
	return target{base: a.base, paths: paths, token: a.token, noAuth: a.token == ""}
}

// caseTarget returns the target of the case key (see peerCases) over the
// records ids. run numbers the title an update writes, so that every run
// writes a value the record does not hold yet.
func (a peerAPI) caseTarget(key string, ids []string, run int) target {
	switch key {
	case "create":
		t := a.target(a.create)
		t.body, t.status = []byte(`{"title":"Bench space"}`), a.created
		return t
	case "list":
		return a.target(a.list)
	}
	paths := make([]string, len(ids))
	for i, id := range ids {
		paths[i] = a.records + id
	}
	t := a.target(paths...)
	if key == "update" {
		t.method, t.status = http.MethodPatch, http.StatusOK
		t.body = titleBody(fmt.Sprintf("Renamed in run %d", run))
	}
	return t
}

// titleBody is the JSON body setting a title.
func titleBody(title string) []byte {
	return mustJSON(map[string]string{"title": title})
}

// quireAPI reads the API token quire wrote in dataDir on its first start
// and finds the organization it bootstrapped.
func quireAPI(ctx context.Context, ld *loader, base, dataDir string) (peerAPI, error) {
	token, err := os.ReadFile(filepath.Join(dataDir, "admin-token"))
	if err != nil {
		return peerAPI{}, fmt.Errorf("reading quire's admin token: %w", err)
	}
	a := peerAPI{base: base, token: strings.TrimSpace(string(token)), records: "/v1/spaces/", created: http.StatusCreated}
	body, _, err := ld.capture(ctx, a.target(), "/v1/orgs")
	if err != nil {
		return a, fmt.Errorf("listing quire's organizations: %w", err)
	}
	var orgs struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	if err := json.Unmarshal(body, &orgs); err != nil {
		return a, fmt.Errorf("decoding quire's organizations: %w", err)
	}
	if len(orgs.Items) != 1 {
		return a, fmt.Errorf("quire holds %d organizations after its first start, want 1", len(orgs.Items))
	}
	a.create = "/v1/orgs/" + orgs.Items[0].ID + "/spaces"
	a.list = a.create + "?limit=100"
	return a, nil
}

// pocketbaseAPI signs in as the superuser and creates the collection of
// spaces: a title, and the created and updated times PocketBase's
// dashboard gives every new collection (Quire keeps both times of a space
// too). Its rules are empty, so anyone may list, view, create and update
// its records: requests to it carry no credentials.
func pocketbaseAPI(ctx context.Context, ld *loader, base string) (peerAPI, error) {
	records := "/api/collections/" + pbCollection + "/records"
	a := peerAPI{base: base, records: records + "/", create: records,
		list: records + "?perPage=100&skipTotal=1", created: http.StatusOK}
	auth := a.target("/api/collections/_superusers/auth-with-password")
	auth.body, auth.status = mustJSON(map[string]string{"identity": pbEmail, "password": pbPassword}), http.StatusOK
	body, _, err := ld.capture(ctx, auth, auth.paths[0])
	if err != nil {
		return a, fmt.Errorf("signing in to pocketbase: %w", err)
	}
	var signedIn struct {
		Token string `json:"token"`
	}
	if err := json.Unmarshal(body, &signedIn); err != nil || signedIn.Token == "" {
		return a, fmt.Errorf("signing in to pocketbase: no token in %s", body)
	}
	coll := target{base: base, token: signedIn.Token, status: http.StatusOK, body: mustJSON(map[string]any{
		"name": pbCollection, "type": "base",
		"listRule": "", "viewRule": "", "createRule": "", "updateRule": "",
		"fields": []map[string]any{
			{"name": "title", "type": "text", "required": true, "max": 50},
			{"name": "created", "type": "autodate", "onCreate": true},
			{"name": "updated", "type": "autodate", "onCreate": true, "onUpdate": true},
		},
	})}
	if _, _, err := ld.capture(ctx, coll, "/api/collections"); err != nil {
		return a, fmt.Errorf("creating pocketbase's collection: %w", err)
	}
	return a, nil
}

// mustJSON encodes v, which holds only strings, booleans, numbers, maps
// and slices of them, and so always encodes.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// seedPeer creates n records through a's create route, the loader's
// number of requests at a time, and returns their ids in the order of
// their titles. It stops at the first failure.
func seedPeer(ctx context.Context, ld *loader, a peerAPI, n int) ([]string, error) {
	ids := make([]string, n)
	errs := make([]error, ld.concurrency)
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for w := range ld.concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				id, err := createRecord(ctx, ld, a, fmt.Sprintf("Space %05d", i))
				if err != nil {
					errs[w] = fmt.Errorf("creating record %d: %w", i, err)
					next.Store(int64(n)) // the other workers stop too
					return
				}
				ids[i] = id
			}
		}()
	}
	wg.Wait()
	return ids, errors.Join(append(errs, ctx.Err())...)
}

// createRecord creates one record of the given title and returns its id.
func createRecord(ctx context.Context, ld *loader, a peerAPI, title string) (string, error) {
	t := a.caseTarget("create", nil, 0)
	t.body = titleBody(title)
	body, _, err := ld.capture(ctx, t, t.paths[0])
	if err != nil {
		return "", err
	}
	var rec struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(body, &rec); err != nil || rec.ID == "" {
		return "", fmt.Errorf("no id in the answer %.200s", body)
	}
	return rec.ID, nil
}

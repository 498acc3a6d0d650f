package storetest

import (
	"testing"
	"time"

	"quire/internal/quire"
)

func oidcTests() []test {
	return []test{
		{"oidc/requests are taken once, before they expire", func(t *testing.T, f *fixture) {
			now := f.tick()
			r := &quire.OIDCRequest{StateHash: []byte("state-1"), Nonce: "n-1", Verifier: "v-1", Redirect: "/app/",
				ExpiresAt: now.Add(10 * time.Minute)}
			must(t, f.st.PutOIDCRequest(ctx(t), r, now))
			old := &quire.OIDCRequest{StateHash: []byte("state-2"), Nonce: "n-2", Verifier: "v-2", ExpiresAt: now.Add(time.Minute)}
			must(t, f.st.PutOIDCRequest(ctx(t), old, now))
			wantCode(t, f.st.PutOIDCRequest(ctx(t), r, now), quire.ECONFLICT)

			_, err := f.st.TakeOIDCRequest(ctx(t), []byte("state-0"), now)
			wantCode(t, err, quire.ENOTFOUND)
			got, err := f.st.TakeOIDCRequest(ctx(t), r.StateHash, now)
			must(t, err)
			equal(t, "request", *got, *r)
			_, err = f.st.TakeOIDCRequest(ctx(t), r.StateHash, now)
			wantCode(t, err, quire.ENOTFOUND)
			_, err = f.st.TakeOIDCRequest(ctx(t), old.StateHash, now.Add(2*time.Minute))
			wantCode(t, err, quire.ENOTFOUND)
		}},
	}
}

package jsruntime

import (
	"encoding/json"
	"testing"
)

// TestWebGlobals checks the web APIs scripts rely on against known
// answers.
func TestWebGlobals(t *testing.T) {
	res, err := run(t, New(Config{}), `
const hex = (b) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");
export default {
	async fetch() {
		const enc = new TextEncoder();
		const key = await crypto.subtle.importKey("raw", enc.encode("key"), { name: "HMAC", hash: { name: "SHA-256" } }, false, ["sign", "verify"]);
		const msg = enc.encode("The quick brown fox jumps over the lazy dog");
		const sig = await crypto.subtle.sign("HMAC", key, msg);
		const fd = new FormData();
		fd.append("event", JSON.stringify({ type: "x" }));
		fd.append("file", new Blob(["hello"], { type: "text/plain" }), "a.txt");
		const req = new Request("https://example.test/v1?a=1", { method: "POST", body: fd });
		const back = await req.formData();
		const h = new Headers([["Set-Cookie", "a=1"], ["set-cookie", "b=2"], ["X-B", "1"]]);
		h.append("x-b", "2");
		const random = crypto.getRandomValues(new Uint8Array(16));
		return Response.json({
			hmac: hex(sig),
			verified: await crypto.subtle.verify("HMAC", key, sig, msg),
			forged: await crypto.subtle.verify("HMAC", key, new Uint8Array(32), msg),
			digest: hex(await crypto.subtle.digest("SHA-256", enc.encode("abc"))),
			b64: [btoa("hé"), atob("aOk="), atob(" aGk ")],
			text: new TextDecoder().decode(enc.encode("h€llo 😀")),
			form: [back.get("event"), back.get("file").name, await back.get("file").text(), back.get("file").type],
			headers: [h.get("x-b"), h.getSetCookie(), Array.from(h.keys())],
			url: [new URL("../b?c=d#e", "https://example.test/a/x").href, new URLSearchParams({ q: "a b" }).toString()],
			random: random.length === 16 && random.some((x) => x !== 0),
			uuid: /^[0-9a-f-]{36}$/.test(crypto.randomUUID()),
			clone: structuredClone({ a: [1] }),
			aborted: await fetch("https://example.test", { signal: AbortSignal.abort() }).catch((e) => e.name),
		});
	},
};`)
	if err != nil {
		t.Fatalf("%v (logs %+v)", err, res.Logs)
	}
	var got map[string]any
	if err := json.Unmarshal(res.Response.Body, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"hmac":     "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8",
		"verified": true,
		"forged":   false,
		"digest":   "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		"b64":      []any{"aOk=", "hé", "hi"},
		"text":     "h€llo 😀",
		"form":     []any{`{"type":"x"}`, "a.txt", "hello", "text/plain"},
		"headers":  []any{"1, 2", []any{"a=1", "b=2"}, []any{"set-cookie", "set-cookie", "x-b"}},
		"url":      []any{"https://example.test/b?c=d#e", "q=a+b"},
		"random":   true,
		"uuid":     true,
		"clone":    map[string]any{"a": []any{1.0}},
		"aborted":  "AbortError",
	}
	for k, w := range want {
		wj, _ := json.Marshal(w)
		gj, _ := json.Marshal(got[k])
		if string(wj) != string(gj) {
			t.Errorf("%s = %s, want %s", k, gj, wj)
		}
	}
}

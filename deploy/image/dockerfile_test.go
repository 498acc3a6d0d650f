package main

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// repoRoot is the Quire repository this module sits in.
const repoRoot = "../.."

// readSpec parses the repository's Dockerfile.
func readSpec(t *testing.T) *imageSpec {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	spec, err := parseDockerfile(f)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// TestDockerfileAgreesWithLayers checks that what the Dockerfile's RUN and
// COPY instructions do, which the offline build makes from the host
// instead, is what the offline build makes: the same user ids, the same
// private data directory, the packages the fonts and certificates come
// from, the binary where the entrypoint runs it, and a listening address
// on the exposed port.
func TestDockerfileAgreesWithLayers(t *testing.T) {
	spec := readSpec(t)
	user, err := parseUser(spec.User)
	if err != nil {
		t.Fatal(err)
	}
	runs := strings.Join(spec.Runs, "\n")
	for _, want := range []string{
		"groupadd --system --gid " + strconv.Itoa(user.gid) + " " + userName,
		"useradd --system --uid " + strconv.Itoa(user.uid) + " --gid " + strconv.Itoa(user.gid) + " --home-dir " + spec.WorkingDir,
	} {
		if !strings.Contains(runs, want) {
			t.Errorf("the final stage's RUN does not say %q:\n%s", want, runs)
		}
	}
	for _, v := range spec.Volumes {
		want := "install -d -o " + strconv.Itoa(user.uid) + " -g " + strconv.Itoa(user.gid) + " -m 0700 " + v
		if !strings.Contains(runs, want) {
			t.Errorf("volume %s is not made the user's own as the offline image makes it (%q):\n%s", v, want, runs)
		}
	}
	for _, f := range baseFiles() {
		if !containsWord(runs, f.pkg) {
			t.Errorf("the final stage does not install %s, which the offline image takes %s from", f.pkg, f.path)
		}
	}
	bin, err := binaryPath(spec)
	if err != nil {
		t.Fatal(err)
	}
	if spec.Entrypoint[0] != bin {
		t.Errorf("ENTRYPOINT runs %s, the binary is copied to %s", spec.Entrypoint[0], bin)
	}
	if h := spec.Healthcheck; h == nil || len(h.Test) < 2 || h.Test[1] != bin {
		t.Errorf("HEALTHCHECK %+v does not run the binary %s", h, bin)
	}
	if !slices.Contains(spec.Volumes, "/data") || !hasEnv(spec.Env, "QUIRE_DATA") {
		t.Errorf("want the data volume /data named by QUIRE_DATA, got volumes %v, env %v", spec.Volumes, spec.Env)
	}
	addr := envValue(spec.Env, "QUIRE_ADDR")
	_, port, _ := strings.Cut(addr, ":")
	if !strings.HasPrefix(addr, "0.0.0.0:") || !slices.Contains(spec.ExposedPorts, port+"/tcp") {
		t.Errorf("QUIRE_ADDR %q does not listen on every address at an exposed port (%v)", addr, spec.ExposedPorts)
	}
}

// containsWord reports whether s has w as a whitespace-separated word.
func containsWord(s, w string) bool {
	return slices.Contains(strings.Fields(s), w)
}

// envValue returns the value env, KEY=value pairs, gives key.
func envValue(env []string, key string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return v
		}
	}
	return ""
}

func TestParseDockerfile(t *testing.T) {
	const text = `# syntax=docker/dockerfile:1
ARG GO=1.26
FROM golang:${GO} AS build
RUN go build -o /out/app .
ENTRYPOINT ["/out/app"]

FROM debian:bookworm-slim
RUN apt-get update \
	# a comment inside the continuation
	&& apt-get install -y ca-certificates
COPY --from=build /out/app /usr/local/bin/
ENV A=1 B="two words" \
    C=x\y
ENV A=3
LABEL org.opencontainers.image.title="Quire"
USER 10001:10002
WORKDIR /data/
EXPOSE 8080 9090/udp
VOLUME ["/data", "/cache"]
HEALTHCHECK --interval=1m --timeout=5s --start-period=10s --retries=2 CMD ["/usr/local/bin/app", "check"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/app"]
CMD ["serve", "--verbose"]
`
	spec, err := parseDockerfile(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	want := &imageSpec{
		From:         "debian:bookworm-slim",
		Env:          []string{"A=3", "B=two words", `C=x\y`},
		User:         "10001:10002",
		WorkingDir:   "/data",
		ExposedPorts: []string{"8080/tcp", "9090/udp"},
		Volumes:      []string{"/data", "/cache"},
		Entrypoint:   []string{"/usr/local/bin/app"},
		Cmd:          []string{"serve", "--verbose"},
		Healthcheck: &healthSpec{Test: []string{"CMD", "/usr/local/bin/app", "check"},
			Interval: time.Minute, Timeout: 5 * time.Second, StartPeriod: 10 * time.Second, Retries: 2},
		Labels:     map[string]string{"org.opencontainers.image.title": "Quire"},
		StopSignal: "SIGTERM",
		Runs:       []string{"apt-get update && apt-get install -y ca-certificates"},
		Copies:     []string{"--from=build /out/app /usr/local/bin/"},
	}
	if !reflect.DeepEqual(spec, want) {
		t.Errorf("parsed\n%+v\nwant\n%+v", spec, want)
	}
	if bin, err := binaryPath(spec); err != nil || bin != "/usr/local/bin/app" {
		t.Errorf("binaryPath = %q, %v", bin, err)
	}
	if u, err := parseUser(spec.User); err != nil || u != (owner{10001, 10002}) {
		t.Errorf("parseUser = %+v, %v", u, err)
	}
}

func TestParseDockerfileRefuses(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"FROM x\nENTRYPOINT /bin/app serve\n", "JSON array"},
		{"FROM x\nCMD [\"a\"]\n", "no ENTRYPOINT"},
		{"FROM x\nADD app /app\nENTRYPOINT [\"/app\"]\n", "not an instruction"},
		{"FROM x\nENV PATH=$PATH:/opt\nENTRYPOINT [\"/app\"]\n", "variables"},
		{"FROM x\nENV KEY value\nENTRYPOINT [\"/app\"]\n", "key=value"},
		{"FROM x\nWORKDIR data\nENTRYPOINT [\"/app\"]\n", "absolute"},
		{"FROM x\nEXPOSE http\nENTRYPOINT [\"/app\"]\n", "port"},
		{"FROM x\nHEALTHCHECK --every=1s CMD [\"/app\"]\nENTRYPOINT [\"/app\"]\n", "--every"},
		{"FROM x\nHEALTHCHECK CMD /app check\nENTRYPOINT [\"/app\"]\n", "JSON array"},
		{"FROM x\nRUN true \\\n", "continuation"},
		{"RUN true\n", "before FROM"},
	} {
		_, err := parseDockerfile(strings.NewReader(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error saying %q", tc.text, err, tc.want)
		}
	}
	for _, user := range []string{"quire", "0:0", "10001:x", ""} {
		if _, err := parseUser(user); err == nil {
			t.Errorf("parseUser(%q) succeeded, want an error", user)
		}
	}
}

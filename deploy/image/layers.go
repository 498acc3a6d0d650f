package main

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// userName is the name of the image's user; its ids are the Dockerfile's
// USER.
const userName = "quire"

// caBundle is where Debian's ca-certificates keeps the bundle Go's
// crypto/x509 reads first on Linux.
const caBundle = "/etc/ssl/certs/ca-certificates.crt"

// hostFile is a file copied from the host into the image at the same
// path, with the Debian package that installs it.
type hostFile struct {
	path, pkg string
}

// fontFiles are the fonts internal/pdf looks for (DefaultFontDirs,
// fontFiles there), where the Dockerfile's packages install them: DejaVu
// for Latin text, Droid Sans Fallback for Chinese and Japanese, Nanum
// Gothic for Korean.
func fontFiles() []hostFile {
	const dir = "/usr/share/fonts/truetype/"
	return []hostFile{
		{dir + "dejavu/DejaVuSans.ttf", "fonts-dejavu-core"},
		{dir + "dejavu/DejaVuSans-Bold.ttf", "fonts-dejavu-core"},
		{dir + "dejavu/DejaVuSans-Oblique.ttf", "fonts-dejavu-core"},
		{dir + "dejavu/DejaVuSans-BoldOblique.ttf", "fonts-dejavu-core"},
		{dir + "dejavu/DejaVuSansMono.ttf", "fonts-dejavu-core"},
		{dir + "droid/DroidSansFallbackFull.ttf", "fonts-droid-fallback"},
		{dir + "nanum/NanumGothic.ttf", "fonts-nanum"},
	}
}

// baseFiles are the other files the image takes from the host: the CA
// bundle, and the licences of what the image redistributes.
func baseFiles() []hostFile {
	files := []hostFile{{caBundle, "ca-certificates"}}
	seen := map[string]bool{}
	for _, f := range append(fontFiles(), files...) {
		if !seen[f.pkg] {
			seen[f.pkg] = true
			files = append(files, hostFile{"/usr/share/doc/" + f.pkg + "/copyright", f.pkg})
		}
	}
	return files
}

// readHostFile reads a file of the host below root, saying which Debian
// package to install when it is missing.
func readHostFile(root string, f hostFile) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.path)))
	if err != nil {
		return nil, fmt.Errorf("%s (install the Debian package %s): %w", f.path, f.pkg, err)
	}
	return b, nil
}

// parseUser reads a numeric USER, uid or uid:gid (the gid then being the
// uid); a name is refused, since runtimes can only tell that a numeric
// user is not root.
func parseUser(user string) (owner, error) {
	u, g, hasGroup := strings.Cut(user, ":")
	if !hasGroup {
		g = u
	}
	uid, err1 := strconv.Atoi(u)
	gid, err2 := strconv.Atoi(g)
	if err1 != nil || err2 != nil || uid <= 0 || gid <= 0 {
		return owner{}, fmt.Errorf("USER %q: want a numeric uid:gid other than root's", user)
	}
	return owner{uid: uid, gid: gid}, nil
}

// binaryPath is where the Dockerfile's final stage copies the binary
// from the build stage: the destination of its one COPY --from.
func binaryPath(spec *imageSpec) (string, error) {
	var dests []string
	for _, c := range spec.Copies {
		f := strings.Fields(c)
		if len(f) >= 3 && strings.HasPrefix(f[0], "--from=") {
			dest := f[len(f)-1]
			if strings.HasSuffix(dest, "/") {
				dest += path.Base(f[len(f)-2])
			}
			dests = append(dests, dest)
		}
	}
	if len(dests) != 1 || !path.IsAbs(dests[0]) {
		return "", fmt.Errorf("want one COPY --from=... of the binary to an absolute path in the final stage, got %q", dests)
	}
	return path.Clean(dests[0]), nil
}

// baseLayer holds the accounts, the name service order, the CA bundle,
// /tmp and the directories the user writes: the volumes, owned by the
// user and private (the Dockerfile's install -d), and the working
// directory.
func baseLayer(t *tarTree, spec *imageSpec, user owner, hostRoot string) error {
	home := spec.WorkingDir
	if home == "" {
		home = "/"
	}
	passwd := fmt.Sprintf("root:x:0:0:root:/root:/usr/sbin/nologin\n%s:x:%d:%d::%s:/usr/sbin/nologin\n", userName, user.uid, user.gid, home)
	group := fmt.Sprintf("root:x:0:\n%s:x:%d:\n", userName, user.gid)
	for _, f := range []struct {
		path, text string
	}{
		{"/etc/passwd", passwd},
		{"/etc/group", group},
		// Go's resolver reads the order of hosts files and DNS here.
		{"/etc/nsswitch.conf", "hosts: files dns\n"},
	} {
		if err := t.file(f.path, []byte(f.text), 0o644, owner{}); err != nil {
			return err
		}
	}
	for _, f := range baseFiles() {
		b, err := readHostFile(hostRoot, f)
		if err != nil {
			return err
		}
		if err := t.file(f.path, b, 0o644, owner{}); err != nil {
			return err
		}
	}
	// Git imports and SQLite's temporary files go to /tmp.
	if err := t.dir("/tmp", 0o1777, owner{}); err != nil {
		return err
	}
	for _, v := range spec.Volumes {
		if err := t.dir(v, 0o700, user); err != nil {
			return err
		}
	}
	if spec.WorkingDir != "" {
		return t.dir(spec.WorkingDir, 0o755, owner{})
	}
	return nil
}

// fontLayer holds the fonts of PDF exports.
func fontLayer(t *tarTree, hostRoot string) error {
	for _, f := range fontFiles() {
		b, err := readHostFile(hostRoot, f)
		if err != nil {
			return err
		}
		if err := t.file(f.path, b, 0o644, owner{}); err != nil {
			return err
		}
	}
	return nil
}

// binaryLayer holds the quire binary at dest.
func binaryLayer(t *tarTree, binary, dest string) error {
	b, err := os.ReadFile(binary)
	if err != nil {
		return err
	}
	return t.file(dest, b, 0o755, owner{})
}

package gitremote

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/sideband"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// head is where a ref of the remote points.
type head struct {
	name plumbing.ReferenceName // the full name the ref resolved to
	hash plumbing.Hash          // zero when the ref does not exist yet
}

// download resolves ref on the remote and, when it exists, fetches its
// commit (only that commit where the server can send a shallow pack) and
// hands the pack to sink. An empty repository, or a missing ref, gives a zero hash; the name
// is then the branch ref stands for. ok is false when ref names no branch;
// with branchOnly nothing is fetched then.
func (r *Remote) download(ctx context.Context, c *connection, ref string, sink func(pack io.Reader) error, branchOnly bool) (head, bool, error) {
	sess, err := c.uploadPack(ctx)
	if err != nil {
		return head{}, false, err
	}
	defer sess.Close()
	ar, err := sess.AdvertisedReferencesContext(ctx)
	if errors.Is(err, transport.ErrEmptyRemoteRepository) {
		name, ok := branchName(ref, "")
		return head{name: name}, ok, nil
	}
	if err != nil {
		return head{}, false, err
	}
	h, ok := resolve(ar, ref)
	if h.hash.IsZero() || branchOnly && !ok {
		return h, ok, nil
	}
	req := packp.NewUploadPackRequestFromCapabilities(ar.Capabilities)
	req.Wants = []plumbing.Hash{h.hash}
	if ar.Capabilities.Supports(capability.Shallow) {
		req.Depth = packp.DepthCommits(1)
		if err := req.Capabilities.Set(capability.Shallow); err != nil {
			return head{}, false, err
		}
	}
	if ar.Capabilities.Supports(capability.NoProgress) {
		if err := req.Capabilities.Set(capability.NoProgress); err != nil {
			return head{}, false, err
		}
	}
	resp, err := sess.UploadPack(ctx, req)
	if err != nil {
		return head{}, false, err
	}
	defer resp.Close()
	var pack io.Reader = &capReader{r: resp, left: r.opts.MaxBytes}
	pack = demux(req.Capabilities, pack)
	if err := sink(pack); err != nil {
		return head{}, false, err
	}
	return h, ok, nil
}

// demux strips the side-band framing from a pack when it was asked for.
func demux(caps *capability.List, r io.Reader) io.Reader {
	switch {
	case caps.Supports(capability.Sideband64k):
		return sideband.NewDemuxer(sideband.Sideband64k, r)
	case caps.Supports(capability.Sideband):
		return sideband.NewDemuxer(sideband.Sideband, r)
	}
	return r
}

// resolve finds ref among the advertised references: "" or HEAD is the
// remote's default branch, a name starting with refs/ is taken as is, any
// other name is a branch, or else a tag. A ref not found gives a zero
// hash and the branch it would be; ok is false when it names no branch.
func resolve(ar *packp.AdvRefs, ref string) (head, bool) {
	if ref == "" || ref == string(plumbing.HEAD) {
		def := defaultBranch(ar)
		if ar.Head != nil {
			return head{name: def, hash: *ar.Head}, def != ""
		}
		name, ok := branchName("", string(def))
		if h, found := ar.References[name.String()]; found {
			return head{name: name, hash: h}, ok
		}
		return head{name: name}, ok
	}
	var candidates []plumbing.ReferenceName
	if strings.HasPrefix(ref, "refs/") {
		candidates = []plumbing.ReferenceName{plumbing.ReferenceName(ref)}
	} else {
		candidates = []plumbing.ReferenceName{plumbing.NewBranchReferenceName(ref), plumbing.NewTagReferenceName(ref)}
	}
	for _, n := range candidates {
		if h, found := ar.References[n.String()]; found {
			return head{name: n, hash: h}, n.IsBranch()
		}
	}
	name, ok := branchName(ref, string(defaultBranch(ar)))
	return head{name: name}, ok
}

// defaultBranch is the branch the remote's HEAD points at, or "" when the
// remote does not tell.
func defaultBranch(ar *packp.AdvRefs) plumbing.ReferenceName {
	for _, v := range ar.Capabilities.Get(capability.SymRef) {
		if target, ok := strings.CutPrefix(v, "HEAD:"); ok {
			return plumbing.ReferenceName(target)
		}
	}
	if ar.Head == nil {
		return ""
	}
	for _, n := range []string{"refs/heads/main", "refs/heads/master"} {
		if h, ok := ar.References[n]; ok && h == *ar.Head {
			return plumbing.ReferenceName(n)
		}
	}
	for n, h := range ar.References {
		if h == *ar.Head && strings.HasPrefix(n, "refs/heads/") {
			return plumbing.ReferenceName(n)
		}
	}
	return ""
}

// fallbackBranch is the branch pushed to when neither the caller nor the
// remote names one.
const fallbackBranch = plumbing.ReferenceName("refs/heads/main")

// branchName is the full branch name ref stands for ("" stands for def,
// or else main); ok is false when ref names something else than a valid
// branch.
func branchName(ref, def string) (plumbing.ReferenceName, bool) {
	var n plumbing.ReferenceName
	switch {
	case ref == "" || ref == string(plumbing.HEAD):
		n = plumbing.ReferenceName(def)
		if n == "" {
			n = fallbackBranch
		}
	case strings.HasPrefix(ref, "refs/"):
		n = plumbing.ReferenceName(ref)
	default:
		n = plumbing.NewBranchReferenceName(ref)
	}
	return n, n.IsBranch() && n.Validate() == nil
}

package gitremote

import (
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Tuning of the object storage read from disk.
const (
	// largeObject is the size above which a blob is read as a stream
	// from its pack instead of whole into memory.
	largeObject = 256 << 10
	// objectCacheSize bounds the objects (trees, small blobs, delta
	// bases) kept decoded in memory.
	objectCacheSize = 16 * cache.MiByte
)

// openObjects returns the object storage of the Git directory fs:
// large blobs are streamed from their pack, and few objects are cached.
func openObjects(fs billy.Filesystem) *filesystem.Storage {
	return filesystem.NewStorageWithOptions(fs, cache.NewObjectLRU(objectCacheSize),
		filesystem.Options{LargeObjectThreshold: largeObject})
}

// receivePack writes the pack read from src into dir/objects/pack,
// scanning it as it arrives to count the objects, then indexes it. The
// objects it unpacks to may hold at most maxObjects bytes in all. dir
// then holds what a filesystem storage reads.
func receivePack(src io.Reader, dir string, maxObjects int64, p *progress) error {
	packDir := filepath.Join(dir, "objects", "pack")
	if err := os.MkdirAll(packDir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(packDir, "incoming-*.pack")
	if err != nil {
		return err
	}
	defer func() {
		if f != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	in := &countingReader{r: src, p: p}
	sc := packfile.NewScanner(io.TeeReader(in, f))
	_, count, err := sc.Header()
	if err != nil {
		return err
	}
	total := int64(count)
	p.set(PhaseReceiving, 0, total)
	for i := int64(1); i <= total; i++ {
		if _, err := sc.NextObjectHeader(); err != nil {
			return err
		}
		if _, _, err := sc.NextObject(io.Discard); err != nil {
			return err
		}
		p.set(PhaseReceiving, i, total)
	}
	if _, err := sc.Checksum(); err != nil {
		return err
	}
	if _, err := io.Copy(f, in); err != nil {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}

	p.set(PhaseIndexing, 0, total)
	idx := new(idxfile.Writer)
	obs := &unpackObserver{left: maxObjects, p: p, total: total}
	parser, err := packfile.NewParser(packfile.NewScanner(f), idx, obs)
	if err != nil {
		return err
	}
	sum, err := parser.Parse()
	if err != nil {
		return err
	}
	index, err := idx.Index()
	if err != nil {
		return err
	}
	base := filepath.Join(packDir, "pack-"+sum.String())
	out, err := os.Create(base + ".idx")
	if err != nil {
		return err
	}
	if _, err := idxfile.NewEncoder(out).Encode(index); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	name := f.Name()
	f = nil
	return os.Rename(name, base+".pack")
}

// unpackObserver follows the indexing of a pack: it counts the objects
// done and the bytes they unpack to, failing past a cap, so a small pack
// that inflates to a huge repository stops there.
type unpackObserver struct {
	left  int64
	total int64
	done  int64
	p     *progress
}

// errObjectsTooLarge is the cause of objects unpacking to more than the cap.
var errObjectsTooLarge = errors.New("objects over the size cap")

// OnHeader implements packfile.Observer.
func (o *unpackObserver) OnHeader(uint32) error { return nil }

// OnInflatedObjectHeader implements packfile.Observer.
func (o *unpackObserver) OnInflatedObjectHeader(_ plumbing.ObjectType, size int64, _ int64) error {
	if o.left -= size; o.left < 0 {
		return errObjectsTooLarge
	}
	return nil
}

// OnInflatedObjectContent implements packfile.Observer.
func (o *unpackObserver) OnInflatedObjectContent(plumbing.Hash, int64, uint32, []byte) error {
	o.done++
	if o.done%64 == 0 || o.done == o.total {
		o.p.set(PhaseIndexing, o.done, o.total)
	}
	return nil
}

// OnFooter implements packfile.Observer.
func (o *unpackObserver) OnFooter(plumbing.Hash) error { return nil }

// errPackTooLarge is the cause of a pack longer than the cap.
var errPackTooLarge = errors.New("pack over the size cap")

// capReader yields at most left bytes of r, then fails with
// errPackTooLarge instead of ending quietly.
type capReader struct {
	r    io.Reader
	left int64
}

// Read implements io.Reader.
func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var one [1]byte
		if n, err := c.r.Read(one[:]); n > 0 {
			return 0, errPackTooLarge
		} else if err != nil {
			return 0, err
		}
		return 0, nil
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

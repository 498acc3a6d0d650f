package dump

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"
)

// summer computes a Sum: the count of lines and the SHA-256 of their
// sorted digests, so that the order of the rows does not matter.
type summer struct {
	digests [][sha256.Size]byte
}

// add counts one line (without its newline).
func (s *summer) add(line []byte) {
	s.digests = append(s.digests, sha256.Sum256(line))
}

// sum returns the count and the checksum of the lines added.
func (s *summer) sum() Sum {
	slices.SortFunc(s.digests, func(a, b [sha256.Size]byte) int { return bytes.Compare(a[:], b[:]) })
	h := sha256.New()
	for i := range s.digests {
		h.Write(s.digests[i][:])
	}
	return Sum{Rows: int64(len(s.digests)), SHA256: hex.EncodeToString(h.Sum(nil))}
}

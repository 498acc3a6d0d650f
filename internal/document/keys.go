package document

import (
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
)

// keyAlphabet is the alphabet of generated keys.
const keyAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// keyLength is the length of generated keys.
const keyLength = 12

// keygen makes fresh node keys; one generator serves one conversion.
type keygen struct {
	rng *rand.ChaCha8
}

func newKeygen() *keygen {
	var seed [32]byte
	if _, err := crand.Read(seed[:]); err != nil {
		// crypto/rand does not fail on supported platforms; fall back to a
		// seed from the runtime's random source.
		for i := 0; i < len(seed); i += 8 {
			binary.LittleEndian.PutUint64(seed[i:], rand.Uint64())
		}
	}
	return &keygen{rng: rand.NewChaCha8(seed)}
}

func (k *keygen) next() string {
	var b [keyLength]byte
	x := k.rng.Uint64()
	for i := range b {
		if i == 10 {
			x = k.rng.Uint64()
		}
		b[i] = keyAlphabet[x%62]
		x /= 62
	}
	return string(b[:])
}

// assignKeys gives every block, inline and fragment under nodes a fresh key.
func (k *keygen) assignKeys(nodes []Node) {
	for i := range nodes {
		n := &nodes[i]
		if n.Object != ObjectText {
			n.Key = k.next()
		}
		k.assignKeys(n.Nodes)
		k.assignKeys(n.Fragments)
	}
}

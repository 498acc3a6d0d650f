package storetest

import (
	"bytes"
	"sync"
	"testing"
)

func downloadKeyTests() []test {
	return []test{
		{"download key/first stored wins, replace swaps it", func(t *testing.T, f *fixture) {
			first := bytes.Repeat([]byte{0xa1}, 32)
			got, err := f.st.DownloadKey(ctx(t), first)
			must(t, err)
			equal(t, "first key", got, first)
			got, err = f.st.DownloadKey(ctx(t), bytes.Repeat([]byte{0xb2}, 32))
			must(t, err)
			equal(t, "key after a second candidate", got, first)

			next := append([]byte{0, 0xff}, bytes.Repeat([]byte{0xc3}, 30)...)
			must(t, f.st.ReplaceDownloadKey(ctx(t), next))
			got, err = f.st.DownloadKey(ctx(t), first)
			must(t, err)
			equal(t, "key after replace", got, next)
		}},
		{"download key/replace before any key", func(t *testing.T, f *fixture) {
			key := bytes.Repeat([]byte{0x07}, 32)
			must(t, f.st.ReplaceDownloadKey(ctx(t), key))
			got, err := f.st.DownloadKey(ctx(t), bytes.Repeat([]byte{0x08}, 32))
			must(t, err)
			equal(t, "key", got, key)
		}},
		{"download key/racing candidates agree", func(t *testing.T, f *fixture) {
			const n = 8
			keys := make([][]byte, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					keys[i], errs[i] = f.st.DownloadKey(ctx(t), bytes.Repeat([]byte{byte(i + 1)}, 32))
				}()
			}
			wg.Wait()
			for i := range n {
				must(t, errs[i])
				equal(t, "key of racer", keys[i], keys[0])
			}
		}},
	}
}

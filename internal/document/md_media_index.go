package document

import (
	"math"
	"sort"

	"github.com/yuin/goldmark/util"
)

// mediaLineIndex holds, for one source and one element name, each line's
// count of opening minus closing tags of that name, summed, so that
// whether an element closes before the next blank line is a lookup
// rather than a scan to that line for every opening.
type mediaLineIndex struct {
	starts []int // offset of each line
	// prefix[i] is the tag depth of lines 0..i together.
	prefix []int
	// sufMin[i] is the least prefix[j] over lines j >= i before the next
	// blank line; math.MaxInt when line i is blank or past the end.
	sufMin []int
}

func indexMediaLines(src []byte, name string) *mediaLineIndex {
	x := &mediaLineIndex{}
	for start := 0; start < len(src); {
		end := start
		for end < len(src) && src[end] != '\n' {
			end++
		}
		if end < len(src) {
			end++
		}
		x.starts = append(x.starts, start)
		start = end
	}
	n := len(x.starts)
	x.prefix = make([]int, n)
	blank := make([]bool, n)
	sum := 0
	for i, start := range x.starts {
		end := len(src)
		if i+1 < n {
			end = x.starts[i+1]
		}
		line := src[start:end]
		blank[i] = util.IsBlank(line)
		if !blank[i] {
			sum += tagDepth(line, name)
		}
		x.prefix[i] = sum
	}
	x.sufMin = make([]int, n+1)
	x.sufMin[n] = math.MaxInt
	for i := n - 1; i >= 0; i-- {
		if blank[i] {
			x.sufMin[i] = math.MaxInt
		} else {
			x.sufMin[i] = min(x.prefix[i], x.sufMin[i+1])
		}
	}
	return x
}

// balancedBeforeBlank reports whether the element name opened at offset
// off of src closes before the first blank line, as the scan of
// balancedBeforeBlank does, in time independent of the distance.
func (p *htmlMediaParser) balancedBeforeBlank(src []byte, off int, name string) bool {
	if p.lines == nil {
		p.lines = map[string]*mediaLineIndex{}
	}
	x := p.lines[name]
	if x == nil {
		x = indexMediaLines(src, name)
		p.lines[name] = x
	}
	f := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
	end := len(src)
	if f+1 < len(x.starts) {
		end = x.starts[f+1]
	}
	first := tagDepth(src[off:end], name)
	if first <= 0 {
		return true
	}
	return x.sufMin[f+1] != math.MaxInt && x.sufMin[f+1]-x.prefix[f] <= -first
}

package document

import "context"

// Option configures FromMarkdown, ToMarkdown and ParseContext.
type Option func(*options)

type options struct {
	headingOffset int
	resolver      LinkResolver
	ctx           context.Context
	// targets records, during an import, the target each reference was
	// first read from, for writing a block back as it was read.
	targets map[Ref]string
}

// HeadingOffset shifts Markdown heading levels by n: with HeadingOffset(1),
// used for page files in a Git repository, editor heading-1 is written
// "##" and read back from "##". The default, 0, is the API page-body form
// where heading-1 is "#".
func HeadingOffset(n int) Option {
	return func(o *options) {
		if n >= 0 && n <= 3 {
			o.headingOffset = n
		}
	}
}

// WithLinkResolver maps Markdown targets to content references and back.
func WithLinkResolver(r LinkResolver) Option {
	return func(o *options) { o.resolver = r }
}

func newOptions(opts []Option) *options {
	o := &options{}
	for _, f := range opts {
		if f != nil {
			f(o)
		}
	}
	return o
}

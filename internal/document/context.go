package document

import "context"

// WithContext makes a conversion stop, with the context's error, once
// ctx is done, so that work for a request ends with the request.
func WithContext(ctx context.Context) Option {
	return func(o *options) { o.ctx = ctx }
}

// convState is what one conversion shares among its nested parts: the
// context to watch and the first error, which stops the rest.
type convState struct {
	ctx   context.Context
	err   error
	steps int
	nodes int
}

func newConvState(o *options) *convState {
	ctx := o.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return &convState{ctx: ctx}
}

// checkContext records the context's error, if it has ended.
func (s *convState) checkContext() {
	if s.err == nil {
		s.err = s.ctx.Err()
	}
}

// stopped reports whether the conversion should stop; every so many
// calls it looks at the context.
func (s *convState) stopped() bool {
	if s.err != nil {
		return true
	}
	s.steps++
	if s.steps%256 == 0 {
		s.checkContext()
	}
	return s.err != nil
}

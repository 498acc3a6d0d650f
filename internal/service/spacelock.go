package service

import (
	"context"
	"sync"
)

// spaceLocks queues this process's holders of a space's lock one behind
// the other, each space on its own, and forgets a space once nobody holds
// or waits for it.
type spaceLocks struct {
	mu    sync.Mutex
	slots map[string]*spaceSlot
}

// spaceSlot is the lock of one space: a one-place channel, full while
// held, and how many callers hold it or wait for it.
type spaceSlot struct {
	held  chan struct{}
	users int
}

// lock waits until the caller holds the space's lock, or until ctx ends.
// The returned function lets it go.
func (l *spaceLocks) lock(ctx context.Context, spaceID string) (func(), error) {
	l.mu.Lock()
	if l.slots == nil {
		l.slots = map[string]*spaceSlot{}
	}
	slot := l.slots[spaceID]
	if slot == nil {
		slot = &spaceSlot{held: make(chan struct{}, 1)}
		l.slots[spaceID] = slot
	}
	slot.users++
	l.mu.Unlock()
	select {
	case slot.held <- struct{}{}:
		return func() {
			<-slot.held
			l.leave(spaceID, slot)
		}, nil
	case <-ctx.Done():
		l.leave(spaceID, slot)
		return nil, ctx.Err()
	}
}

// leave counts a caller out of a space's slot.
func (l *spaceLocks) leave(spaceID string, slot *spaceSlot) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if slot.users--; slot.users == 0 {
		delete(l.slots, spaceID)
	}
}

package jsruntime

import (
	"runtime/metrics"
	"sync"
	"time"
)

// meter adds up the time a run spends executing JavaScript: the CPU
// time of its one goroutine, as far as the runtime can tell (time off
// the CPU while JavaScript runs, which the scheduler decides, counts
// too).
type meter struct {
	mu    sync.Mutex
	used  time.Duration
	since time.Time
}

func (m *meter) begin() {
	m.mu.Lock()
	m.since = time.Now()
	m.mu.Unlock()
}

func (m *meter) end() {
	m.mu.Lock()
	m.used += time.Since(m.since)
	m.since = time.Time{}
	m.mu.Unlock()
}

// total is the time used so far, the current stretch included.
func (m *meter) total() time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.since.IsZero() {
		return m.used
	}
	return m.used + time.Since(m.since)
}

// liveHeapMetric is the heap the last garbage collection found
// reachable.
const liveHeapMetric = "/gc/heap/live:bytes"

// liveHeap reads liveHeapMetric.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: liveHeapMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// watchdogTick is how often the watchdog looks at a run.
const watchdogTick = 10 * time.Millisecond

// startWatchdog stops l when it goes past its CPU time, or when the live
// heap has grown by more than its memory limit since it started. goja
// cannot count what one runtime allocates, so memory is judged on the
// whole process: a run is blamed for growth that others caused at the
// same time, and growth shows only once a collection has run, which a
// growing heap triggers. The returned func stops the watchdog.
func startWatchdog(l *loop, cfg Config) func() {
	base := liveHeap()
	quit := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(watchdogTick)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
			}
			if l.cpu.total() > cfg.CPUTime {
				l.stop(ErrCPUTime)
				return
			}
			if liveHeap()-base > cfg.Memory {
				l.stop(ErrMemory)
				return
			}
		}
	}()
	return func() {
		close(quit)
		<-done
	}
}

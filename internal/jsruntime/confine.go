package jsruntime

import (
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// cpuLimit is the CPU time, all threads counted, past which the kernel
// kills a sandbox child: well above the run's own CPU time limit, which
// the watchdog enforces first, as the collector works on other threads.
func cpuLimit(cpu time.Duration) time.Duration {
	return (3*cpu + 2*time.Second).Truncate(time.Second)
}

// sandboxHeadroom is the data a sandbox child may map beyond the memory
// limit and what it had mapped when it starts: the Go runtime's heap
// metadata, the stacks of threads it starts later, and room for the
// collector not to run without end near the limit.
const sandboxHeadroom = 64 << 20

// softLimit tells the collector to keep the whole process within what
// it uses now plus lim.Memory and three quarters of sandboxHeadroom:
// near the hard limit it collects often, so the watchdog sees the live
// heap pass lim.Memory before the hard limit is reached, while a live
// heap just under lim.Memory leaves it enough room not to collect
// without end.
func softLimit(lim limits) {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	var used int64
	if s[0].Value.Kind() == metrics.KindUint64 {
		used = int64(s[0].Value.Uint64())
	}
	debug.SetMemoryLimit(used + lim.Memory + sandboxHeadroom*3/4)
}

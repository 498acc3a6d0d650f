// Package jsruntime runs integration scripts: ES module bundles as the
// official CLI builds them, whose default export answers
// fetch(request, env, ctx) as on a Workers-style platform.
//
// Each run gets a fresh goja runtime holding only the ECMAScript
// built-ins and the web globals such a script needs (Request, Response,
// Headers, URL, URLSearchParams, FormData, Blob, fetch, TextEncoder,
// TextDecoder, atob, btoa, crypto with HMAC and digests in crypto.subtle,
// timers, AbortController, console). There is no require, no process and
// no way to the host's files or environment; fetch goes through the Doer
// the Runner was given (the server's guarded client). A run ends when
// the handler's answer and everything passed to ctx.waitUntil have
// settled, or when it goes past its CPU time, memory, wall time or
// context. With a Sandbox, each run happens in a child process of its
// own (ServeSandbox) whose data size the kernel limits, so that memory
// is a hard limit; the child's fetches come back to the parent's Doer.
package jsruntime

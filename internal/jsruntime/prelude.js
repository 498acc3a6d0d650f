// The Workers-style globals of a script's runtime, written over the
// natives the Go side hands in (host): bytes, text, timers, fetch, crypto
// and the console. It runs first in every fresh runtime and returns the
// helpers the Go side needs to build the request and read the response;
// host itself never becomes a global.
(function (host) {
    'use strict';

    const maxBody = host.maxBody;
    const internal = Symbol('internal');

    const define = (name, value) =>
        Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
    guardAllocations(host.maxLength);

    // guardAllocations bounds what the built-ins would otherwise allocate
    // in one step, inside native loops the CPU watchdog cannot interrupt:
    // strings from repeat and padding, arrays and buffers by length, and
    // the array methods that walk or copy a whole (possibly sparse) array.
    function guardAllocations(maxLength) {
        const { apply, construct } = Reflect;
        const check = (n, what) => {
            if (n > maxLength) throw new RangeError(`${what} of length ${n} is over the limit of ${maxLength}`);
        };
        const wrapMethod = (proto, name, length) => {
            const orig = proto[name];
            if (typeof orig !== 'function') return;
            Object.defineProperty(proto, name, {
                value: {
                    [name](...args) {
                        check(length(this, args), name);
                        return apply(orig, this, args);
                    },
                }[name],
                writable: true,
                configurable: true,
                enumerable: false,
            });
        };
        const num = (v) => (typeof v === 'number' ? v : Number(v) || 0);
        wrapMethod(String.prototype, 'repeat', (s, [n]) => String(s).length * Math.max(0, num(n)));
        wrapMethod(String.prototype, 'padStart', (s, [n]) => num(n));
        wrapMethod(String.prototype, 'padEnd', (s, [n]) => num(n));
        // Every method that walks the array (setting length makes a sparse
        // array of any length at no cost), except the cheap ones at its
        // ends and the lazy iterators.
        const cheap = new Set(['constructor', 'push', 'pop', 'at']);
        const lengthOf = (a) => (a == null ? 0 : num(a.length));
        for (const name of Object.getOwnPropertyNames(Array.prototype)) {
            if (cheap.has(name) || typeof Array.prototype[name] !== 'function') continue;
            wrapMethod(Array.prototype, name, lengthOf);
        }
        // The iterator too, so that spreading an array goes through it (and
        // so through JavaScript the watchdog interrupts) and not through a
        // native copy.
        Object.defineProperty(Array.prototype, Symbol.iterator, {
            value: Array.prototype.values,
            writable: true,
            configurable: true,
            enumerable: false,
        });
        wrapMethod(Function.prototype, 'apply', (f, [, args]) => lengthOf(args));
        wrapMethod(Reflect, 'apply', (r, [, , args]) => lengthOf(args));
        wrapMethod(Reflect, 'construct', (r, [, args]) => lengthOf(args));
        // A wrapped constructor is a plain function sharing the original's
        // prototype (goja's instanceof does not take a Proxy), inheriting
        // its statics and answering for it as prototype.constructor.
        const wrapCtor = (name, length) => {
            const orig = globalThis[name];
            if (typeof orig !== 'function') return;
            const guarded = function (...args) {
                check(length(args), name);
                if (new.target === undefined) return apply(orig, this, args);
                return construct(orig, args, new.target === guarded ? orig : new.target);
            };
            Object.defineProperty(guarded, 'name', { value: name });
            Object.defineProperty(guarded, 'length', { value: orig.length });
            Object.setPrototypeOf(guarded, orig);
            Object.defineProperty(guarded, 'prototype', { value: orig.prototype, writable: false });
            Object.defineProperty(orig.prototype, 'constructor', {
                value: guarded,
                writable: true,
                configurable: true,
                enumerable: false,
            });
            define(name, guarded);
        };
        const arrayLength = (args) => (args.length === 1 && typeof args[0] === 'number' ? args[0] : args.length);
        wrapCtor('Array', arrayLength);
        const from = Array.from;
        Array.from = function from_(items, ...rest) {
            if (items != null && typeof items === 'object' && !(Symbol.iterator in items)) check(num(items.length), 'Array.from');
            return apply(from, this, [items, ...rest]);
        };
        wrapCtor('ArrayBuffer', (args) => num(args[0]));
        for (const name of [
            'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
            'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
        ]) {
            const size = globalThis[name] && globalThis[name].BYTES_PER_ELEMENT;
            wrapCtor(name, (args) => {
                const a = args[0];
                if (typeof a === 'number') return a * size;
                if (a != null && typeof a === 'object' && !(a instanceof ArrayBuffer)) return lengthOf(a) * size;
                return 0;
            });
        }
        // JSON.stringify writes the elements of a sparse array natively: a
        // replacer brings each value through JavaScript, where long arrays
        // are refused and the watchdog can interrupt.
        const stringify = JSON.stringify;
        JSON.stringify = function stringify_(value, replacer, space) {
            if (Array.isArray(replacer)) {
                check(lengthOf(value), 'JSON.stringify');
                return apply(stringify, JSON, [value, replacer, space]);
            }
            const user = typeof replacer === 'function' ? replacer : null;
            return apply(stringify, JSON, [
                value,
                function (k, v) {
                    if (Array.isArray(v)) check(v.length, 'JSON.stringify');
                    return user ? apply(user, this, [k, v]) : v;
                },
                space,
            ]);
        };
    }

    function checkSize(n) {
        if (n > maxBody) throw new RangeError(`body of ${n} bytes is larger than the limit of ${maxBody} bytes`);
    }

    // bytesOf returns a Uint8Array over a BufferSource.
    function bytesOf(v) {
        if (v instanceof Uint8Array) return v;
        if (v instanceof ArrayBuffer) return new Uint8Array(v);
        if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
        throw new TypeError('expected an ArrayBuffer or a typed array');
    }

    function copyBuffer(u8) {
        return u8.buffer.slice(u8.byteOffset, u8.byteOffset + u8.byteLength);
    }

    // ---- text ----

    class TextEncoder {
        get encoding() {
            return 'utf-8';
        }
        encode(s = '') {
            return new Uint8Array(host.utf8Encode(String(s)));
        }
        encodeInto(s, dest) {
            const b = this.encode(s);
            const n = Math.min(b.length, dest.length);
            dest.set(b.subarray(0, n));
            return { read: String(s).length, written: n };
        }
    }

    class TextDecoder {
        constructor(label = 'utf-8', options = {}) {
            const l = String(label).toLowerCase();
            if (l !== 'utf-8' && l !== 'utf8' && l !== 'unicode-1-1-utf-8') {
                throw new RangeError(`The encoding "${label}" is not supported`);
            }
            this.fatal = !!options.fatal;
            this.ignoreBOM = !!options.ignoreBOM;
        }
        get encoding() {
            return 'utf-8';
        }
        decode(input) {
            if (input === undefined) return '';
            return host.utf8Decode(copyBuffer(bytesOf(input)), this.fatal, this.ignoreBOM);
        }
    }

    // ---- Blob, File ----

    class Blob {
        constructor(parts = [], options = {}) {
            const chunks = [];
            let size = 0;
            for (const p of parts) {
                let b;
                if (p instanceof Blob) b = p[internal];
                else if (p instanceof ArrayBuffer || ArrayBuffer.isView(p)) b = bytesOf(p);
                else b = new TextEncoder().encode(String(p));
                chunks.push(b);
                size += b.length;
            }
            checkSize(size);
            const all = new Uint8Array(size);
            let off = 0;
            for (const c of chunks) {
                all.set(c, off);
                off += c.length;
            }
            this[internal] = all;
            this.type = options.type ? String(options.type).toLowerCase() : '';
        }
        get size() {
            return this[internal].length;
        }
        async text() {
            return new TextDecoder().decode(this[internal]);
        }
        async arrayBuffer() {
            return copyBuffer(this[internal]);
        }
        async bytes() {
            return new Uint8Array(copyBuffer(this[internal]));
        }
        slice(start, end, type) {
            return new Blob([this[internal].slice(start, end)], { type });
        }
    }

    class File extends Blob {
        constructor(parts, name, options = {}) {
            super(parts, options);
            this.name = String(name);
            this.lastModified = options.lastModified ?? Date.now();
        }
    }

    // ---- URLSearchParams-free helpers ----

    function parseURLEncoded(text) {
        const fd = new FormData();
        for (const [k, v] of new URLSearchParams(text)) fd.append(k, v);
        return fd;
    }

    // ---- Headers ----

    const tokenRE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

    function normName(name) {
        name = String(name);
        if (!tokenRE.test(name)) throw new TypeError(`Invalid header name: "${name}"`);
        return name.toLowerCase();
    }

    function normValue(value) {
        value = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
        if (/[\0\r\n]/.test(value)) throw new TypeError('Invalid header value');
        return value;
    }

    class Headers {
        constructor(init) {
            this[internal] = new Map();
            if (init == null) return;
            if (init instanceof Headers) {
                for (const [k, vs] of init[internal]) this[internal].set(k, vs.slice());
            } else if (typeof init[Symbol.iterator] === 'function') {
                for (const pair of init) {
                    const p = Array.from(pair);
                    if (p.length !== 2) throw new TypeError('Each header pair must be a [name, value] tuple');
                    this.append(p[0], p[1]);
                }
            } else if (typeof init === 'object') {
                for (const k of Object.keys(init)) this.append(k, init[k]);
            } else {
                throw new TypeError('Invalid headers init');
            }
        }
        append(name, value) {
            const k = normName(name);
            const v = normValue(value);
            const vs = this[internal].get(k);
            if (vs) vs.push(v);
            else this[internal].set(k, [v]);
        }
        set(name, value) {
            this[internal].set(normName(name), [normValue(value)]);
        }
        get(name) {
            const vs = this[internal].get(normName(name));
            return vs ? vs.join(', ') : null;
        }
        getSetCookie() {
            return (this[internal].get('set-cookie') || []).slice();
        }
        has(name) {
            return this[internal].has(normName(name));
        }
        delete(name) {
            this[internal].delete(normName(name));
        }
        forEach(fn, thisArg) {
            for (const [k, v] of this) fn.call(thisArg, v, k, this);
        }
        *entries() {
            const names = Array.from(this[internal].keys()).sort();
            for (const k of names) {
                if (k === 'set-cookie') {
                    for (const v of this[internal].get(k)) yield [k, v];
                } else {
                    yield [k, this[internal].get(k).join(', ')];
                }
            }
        }
        *keys() {
            for (const [k] of this.entries()) yield k;
        }
        *values() {
            for (const [, v] of this.entries()) yield v;
        }
        [Symbol.iterator]() {
            return this.entries();
        }
    }

    // ---- FormData ----

    function formValue(value, filename) {
        if (value instanceof Blob) {
            if (filename !== undefined || !(value instanceof File)) {
                return new File([value], filename !== undefined ? filename : value.name || 'blob', { type: value.type });
            }
            return value;
        }
        return String(value);
    }

    class FormData {
        constructor() {
            this[internal] = [];
        }
        append(name, value, filename) {
            this[internal].push([String(name), formValue(value, filename)]);
        }
        set(name, value, filename) {
            name = String(name);
            const v = formValue(value, filename);
            const list = this[internal];
            const i = list.findIndex((e) => e[0] === name);
            if (i < 0) {
                list.push([name, v]);
                return;
            }
            list[i] = [name, v];
            this[internal] = list.filter((e, j) => j <= i || e[0] !== name);
        }
        get(name) {
            const e = this[internal].find((e) => e[0] === String(name));
            return e ? e[1] : null;
        }
        getAll(name) {
            return this[internal].filter((e) => e[0] === String(name)).map((e) => e[1]);
        }
        has(name) {
            return this[internal].some((e) => e[0] === String(name));
        }
        delete(name) {
            this[internal] = this[internal].filter((e) => e[0] !== String(name));
        }
        forEach(fn, thisArg) {
            for (const [k, v] of this) fn.call(thisArg, v, k, this);
        }
        *entries() {
            for (const e of this[internal].slice()) yield [e[0], e[1]];
        }
        *keys() {
            for (const [k] of this.entries()) yield k;
        }
        *values() {
            for (const [, v] of this.entries()) yield v;
        }
        [Symbol.iterator]() {
            return this.entries();
        }
    }

    // ---- bodies ----

    // extractBody turns a BodyInit into bytes and the content type it implies.
    function extractBody(body) {
        if (body == null) return { bytes: null, type: null };
        if (typeof body === 'string') return { bytes: new TextEncoder().encode(body), type: 'text/plain;charset=UTF-8' };
        if (body instanceof URLSearchParams) {
            return {
                bytes: new TextEncoder().encode(body.toString()),
                type: 'application/x-www-form-urlencoded;charset=UTF-8',
            };
        }
        if (body instanceof Blob) return { bytes: body[internal], type: body.type || null };
        if (body instanceof FormData) {
            const parts = body[internal].map(([name, v]) =>
                v instanceof Blob ? [name, copyBuffer(v[internal]), v.name, v.type] : [name, v],
            );
            const out = host.encodeMultipart(parts);
            return { bytes: new Uint8Array(out.body), type: out.contentType };
        }
        if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
            return { bytes: new Uint8Array(copyBuffer(bytesOf(body))), type: null };
        }
        if (body instanceof ReadableStream) return { bytes: body[internal], type: null };
        return { bytes: new TextEncoder().encode(String(body)), type: 'text/plain;charset=UTF-8' };
    }

    // ReadableStream is only what reading a whole, already received body
    // needs: one reader yielding the body as one chunk.
    class ReadableStream {
        constructor() {
            throw new TypeError('constructing a ReadableStream is not supported; pass a string or bytes');
        }
        getReader() {
            if (this.locked) throw new TypeError('ReadableStream is locked');
            this.locked = true;
            let done = false;
            const bytes = this[internal];
            return {
                read: async () => {
                    if (done || bytes.length === 0) {
                        done = true;
                        return { done: true, value: undefined };
                    }
                    done = true;
                    return { done: false, value: bytes };
                },
                cancel: async () => {
                    done = true;
                },
                releaseLock: () => {
                    this.locked = false;
                },
                closed: Promise.resolve(),
            };
        }
        [Symbol.asyncIterator]() {
            const r = this.getReader();
            return {
                next: () => r.read(),
                return: async () => {
                    await r.cancel();
                    return { done: true, value: undefined };
                },
                [Symbol.asyncIterator]() {
                    return this;
                },
            };
        }
    }

    function streamOf(bytes) {
        const s = Object.create(ReadableStream.prototype);
        s[internal] = bytes;
        s.locked = false;
        return s;
    }

    class Body {
        get body() {
            const b = this[internal].body;
            if (b === null) return null;
            this[internal].used = true;
            return streamOf(b);
        }
        get bodyUsed() {
            return this[internal].used;
        }
        _take() {
            const st = this[internal];
            if (st.used) return Promise.reject(new TypeError('Body has already been used'));
            st.used = true;
            return Promise.resolve(st.body || new Uint8Array(0));
        }
        async arrayBuffer() {
            return copyBuffer(await this._take());
        }
        async bytes() {
            return new Uint8Array(copyBuffer(await this._take()));
        }
        async text() {
            return new TextDecoder().decode(await this._take());
        }
        async json() {
            return JSON.parse(await this.text());
        }
        async blob() {
            const b = await this._take();
            return new Blob([b], { type: this.headers.get('content-type') || '' });
        }
        async formData() {
            const type = this.headers.get('content-type') || '';
            const b = await this._take();
            if (/^multipart\/form-data/i.test(type)) {
                const fd = new FormData();
                for (const p of host.parseMultipart(type, copyBuffer(b))) {
                    if (p.length === 2) fd.append(p[0], p[1]);
                    else fd.append(p[0], new File([p[1]], p[2], { type: p[3] }));
                }
                return fd;
            }
            if (/^application\/x-www-form-urlencoded/i.test(type)) {
                return parseURLEncoded(new TextDecoder().decode(b));
            }
            throw new TypeError(`Could not parse content as FormData (content type "${type}")`);
        }
    }

    function initBody(target, body, headers) {
        const { bytes, type } = extractBody(body);
        if (bytes !== null) checkSize(bytes.length);
        if (type && !headers.has('content-type')) headers.set('content-type', type);
        target[internal] = { body: bytes, used: false };
    }

    // ---- AbortController ----

    class AbortSignal {
        constructor() {
            throw new TypeError('Illegal constructor');
        }
        static abort(reason) {
            const c = new AbortController();
            c.abort(reason);
            return c.signal;
        }
        static timeout(ms) {
            const c = new AbortController();
            setTimeout(() => c.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms);
            return c.signal;
        }
        addEventListener(type, fn) {
            if (type === 'abort') this._listeners.push(fn);
        }
        removeEventListener(type, fn) {
            if (type === 'abort') this._listeners = this._listeners.filter((l) => l !== fn);
        }
        throwIfAborted() {
            if (this.aborted) throw this.reason;
        }
    }

    function newSignal() {
        const s = Object.create(AbortSignal.prototype);
        s.aborted = false;
        s.reason = undefined;
        s.onabort = null;
        s._listeners = [];
        return s;
    }

    class AbortController {
        constructor() {
            this.signal = newSignal();
        }
        abort(reason) {
            const s = this.signal;
            if (s.aborted) return;
            s.aborted = true;
            s.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
            const ev = { type: 'abort', target: s };
            if (typeof s.onabort === 'function') s.onabort(ev);
            for (const l of s._listeners.slice()) l(ev);
        }
    }

    class DOMException extends Error {
        constructor(message = '', name = 'Error') {
            super(message);
            this.name = name;
        }
    }

    // ---- Request, Response ----

    class Request extends Body {
        constructor(input, init = {}) {
            super();
            let src = null;
            if (input instanceof Request) src = input;
            this.url = new URL(src ? src.url : String(input)).href;
            this.method = String(init.method || (src ? src.method : 'GET')).toUpperCase();
            this.headers = new Headers(init.headers || (src ? src.headers : undefined));
            this.signal = init.signal || (src ? src.signal : null) || newSignal();
            this.redirect = init.redirect || (src ? src.redirect : 'follow');
            let body = init.body;
            if (body === undefined && src) body = src[internal].body;
            if (body != null && (this.method === 'GET' || this.method === 'HEAD')) {
                throw new TypeError('Request with GET/HEAD method cannot have body.');
            }
            initBody(this, body, this.headers);
        }
        clone() {
            return new Request(this);
        }
    }

    const statusTexts = {
        200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 205: 'Reset Content',
        301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 304: 'Not Modified',
        307: 'Temporary Redirect', 308: 'Permanent Redirect', 400: 'Bad Request', 401: 'Unauthorized',
        403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable',
        409: 'Conflict', 410: 'Gone', 412: 'Precondition Failed', 413: 'Payload Too Large',
        415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 429: 'Too Many Requests',
        500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway',
        503: 'Service Unavailable', 504: 'Gateway Timeout',
    };

    class Response extends Body {
        constructor(body = null, init = {}) {
            super();
            const status = init.status === undefined ? 200 : Number(init.status);
            if (!(status >= 200 && status <= 599) || Math.floor(status) !== status) {
                throw new RangeError(`Response status ${init.status} is not in the range 200 to 599`);
            }
            this.status = status;
            this.statusText = init.statusText !== undefined ? String(init.statusText) : '';
            this.headers = new Headers(init.headers);
            this.url = '';
            this.redirected = false;
            this.type = 'default';
            initBody(this, body, this.headers);
        }
        get ok() {
            return this.status >= 200 && this.status < 300;
        }
        clone() {
            if (this.bodyUsed) throw new TypeError('Response body is already used');
            const r = new Response(this[internal].body, this);
            r.url = this.url;
            return r;
        }
        static json(data, init = {}) {
            const headers = new Headers(init.headers);
            if (!headers.has('content-type')) headers.set('content-type', 'application/json');
            return new Response(JSON.stringify(data), { ...init, headers });
        }
        static redirect(url, status = 302) {
            return new Response(null, { status, headers: { location: new URL(String(url)).href } });
        }
        static error() {
            const r = new Response(null, { status: 200 });
            r.status = 0;
            r.type = 'error';
            return r;
        }
    }

    // ---- fetch ----

    function fetch(input, init) {
        return new Promise((resolve, reject) => {
            const req = new Request(input, init);
            const signal = req.signal;
            if (signal.aborted) {
                reject(signal.reason);
                return;
            }
            const headers = Array.from(req.headers);
            const body = req[internal].body;
            const id = host.fetch(req.method, req.url, headers, body ? copyBuffer(body) : null, (err, res) => {
                signal.removeEventListener('abort', onAbort);
                if (err !== null) {
                    reject(signal.aborted ? signal.reason : new TypeError(err));
                    return;
                }
                const r = new Response(null, { status: 200, headers: res.headers });
                r.status = res.status;
                r.statusText = res.statusText || statusTexts[res.status] || '';
                r.url = res.url;
                r.redirected = res.redirected;
                r.type = 'basic';
                r[internal] = { body: new Uint8Array(res.body), used: false };
                resolve(r);
            });
            const onAbort = () => host.abortFetch(id);
            signal.addEventListener('abort', onAbort);
        });
    }

    // ---- timers ----

    function setTimeout(fn, ms = 0, ...args) {
        if (typeof fn !== 'function') throw new TypeError('setTimeout callback must be a function');
        return host.setTimer(() => fn(...args), Number(ms) || 0, false);
    }

    function setInterval(fn, ms = 0, ...args) {
        if (typeof fn !== 'function') throw new TypeError('setInterval callback must be a function');
        return host.setTimer(() => fn(...args), Number(ms) || 0, true);
    }

    function clearTimer(id) {
        if (id !== undefined && id !== null) host.clearTimer(Number(id));
    }

    // ---- crypto ----

    const hashNames = { 'SHA-1': 'SHA-1', 'SHA-256': 'SHA-256', 'SHA-384': 'SHA-384', 'SHA-512': 'SHA-512' };

    function hashOf(alg) {
        const name = typeof alg === 'string' ? alg : alg && alg.name;
        const h = hashNames[String(name).toUpperCase()];
        if (!h) throw new DOMException(`Unrecognized hash ${name}`, 'NotSupportedError');
        return h;
    }

    function algName(alg) {
        return String(typeof alg === 'string' ? alg : alg && alg.name).toUpperCase();
    }

    class CryptoKey {
        constructor() {
            throw new TypeError('Illegal constructor');
        }
    }

    function hmacKey(bytes, hash, extractable, usages) {
        const k = Object.create(CryptoKey.prototype);
        k.type = 'secret';
        k.extractable = !!extractable;
        k.algorithm = { name: 'HMAC', hash: { name: hash }, length: bytes.length * 8 };
        k.usages = Array.from(usages || []);
        k[internal] = bytes;
        return k;
    }

    function needHMAC(alg, key, usage) {
        if (algName(alg) !== 'HMAC') throw new DOMException(`Unsupported algorithm ${algName(alg)}`, 'NotSupportedError');
        if (!(key instanceof CryptoKey) || key.algorithm.name !== 'HMAC') {
            throw new DOMException('Key is not an HMAC key', 'InvalidAccessError');
        }
        if (!key.usages.includes(usage)) throw new DOMException(`Key does not allow ${usage}`, 'InvalidAccessError');
    }

    const subtle = {
        async digest(alg, data) {
            return host.digest(hashOf(alg), copyBuffer(bytesOf(data)));
        },
        async importKey(format, keyData, alg, extractable, usages) {
            if (algName(alg) !== 'HMAC') throw new DOMException(`Unsupported algorithm ${algName(alg)}`, 'NotSupportedError');
            if (format !== 'raw') throw new DOMException(`Unsupported key format ${format}`, 'NotSupportedError');
            return hmacKey(new Uint8Array(copyBuffer(bytesOf(keyData))), hashOf(alg.hash), extractable, usages);
        },
        async exportKey(format, key) {
            if (format !== 'raw') throw new DOMException(`Unsupported key format ${format}`, 'NotSupportedError');
            if (!key.extractable) throw new DOMException('Key is not extractable', 'InvalidAccessError');
            return copyBuffer(key[internal]);
        },
        async generateKey(alg, extractable, usages) {
            if (algName(alg) !== 'HMAC') throw new DOMException(`Unsupported algorithm ${algName(alg)}`, 'NotSupportedError');
            const hash = hashOf(alg.hash);
            const bits = alg.length || (hash === 'SHA-384' || hash === 'SHA-512' ? 1024 : 512);
            return hmacKey(new Uint8Array(host.randomBytes(Math.ceil(bits / 8))), hash, extractable, usages);
        },
        async sign(alg, key, data) {
            needHMAC(alg, key, 'sign');
            return host.hmac(key.algorithm.hash.name, copyBuffer(key[internal]), copyBuffer(bytesOf(data)));
        },
        async verify(alg, key, signature, data) {
            needHMAC(alg, key, 'verify');
            return host.hmacVerify(
                key.algorithm.hash.name,
                copyBuffer(key[internal]),
                copyBuffer(bytesOf(signature)),
                copyBuffer(bytesOf(data)),
            );
        },
    };

    const crypto = {
        subtle,
        getRandomValues(ta) {
            if (!ArrayBuffer.isView(ta) || ta instanceof Float32Array || ta instanceof Float64Array || ta instanceof DataView) {
                throw new TypeError('getRandomValues needs an integer typed array');
            }
            if (ta.byteLength > 65536) throw new DOMException('getRandomValues is limited to 65536 bytes', 'QuotaExceededError');
            bytesOf(ta).set(new Uint8Array(host.randomBytes(ta.byteLength)));
            return ta;
        },
        randomUUID() {
            return host.randomUUID();
        },
    };

    // ---- console ----

    function show(v, depth) {
        if (typeof v === 'string') return v;
        if (v instanceof Error) return v.stack || `${v.name}: ${v.message}`;
        if (typeof v === 'function') return `[Function ${v.name || 'anonymous'}]`;
        if (typeof v === 'symbol' || typeof v === 'bigint') return v.toString();
        if (v === null || typeof v !== 'object') return String(v);
        try {
            const s = JSON.stringify(v);
            if (s !== undefined) return s;
        } catch (e) {
            // circular or otherwise not JSON: fall through
        }
        return Object.prototype.toString.call(v);
    }

    function format(args) {
        if (args.length === 0) return '';
        let first = args[0];
        let rest = args.slice(1);
        if (typeof first === 'string' && /%[sdifoOj%]/.test(first)) {
            first = first.replace(/%([sdifoOj%])/g, (m, c) => {
                if (c === '%') return '%';
                if (rest.length === 0) return m;
                const a = rest.shift();
                if (c === 's') return typeof a === 'string' ? a : show(a);
                if (c === 'd' || c === 'i') return String(c === 'i' ? parseInt(a, 10) : Number(a));
                if (c === 'f') return String(parseFloat(a));
                return show(a);
            });
        }
        return [first, ...rest].map((a) => show(a)).join(' ');
    }

    const console = {};
    for (const [method, level] of [
        ['debug', 'debug'],
        ['log', 'info'],
        ['info', 'info'],
        ['trace', 'debug'],
        ['warn', 'warn'],
        ['error', 'error'],
    ]) {
        console[method] = (...args) => host.log(level, format(args));
    }

    function btoa(s) {
        return host.btoa(String(s));
    }

    function atob(s) {
        return host.atob(String(s));
    }

    function structuredClone(v) {
        return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
    }

    for (const [name, value] of Object.entries({
        TextEncoder, TextDecoder, Blob, File, Headers, FormData, ReadableStream, Request, Response,
        AbortController, AbortSignal, DOMException, CryptoKey, fetch, setTimeout, setInterval,
        clearTimeout: clearTimer, clearInterval: clearTimer, crypto, console, btoa, atob, structuredClone,
        queueMicrotask: (fn) => void Promise.resolve().then(fn),
    })) {
        define(name, value);
    }
    define('self', globalThis);

    return {
        // newRequest builds the Request handed to the script.
        newRequest(url, method, headers, body) {
            return new Request(url, { method, headers, body: body === null ? undefined : new Uint8Array(body) });
        },
        // readResponse turns what the script answered into plain values.
        readResponse(r) {
            if (!(r instanceof Response)) throw new TypeError('the fetch handler did not answer with a Response');
            const b = r[internal].body;
            return { status: r.status, headers: Array.from(r.headers), body: b === null ? null : copyBuffer(b) };
        },
        // newContext is the execution context of a fetch handler.
        newContext() {
            return {
                waitUntil(p) {
                    host.waitBegin();
                    Promise.resolve(p).then(
                        () => host.waitEnd(),
                        (e) => {
                            console.error('waitUntil promise rejected:', e);
                            host.waitEnd();
                        },
                    );
                },
                passThroughOnException() {},
            };
        },
    };
});

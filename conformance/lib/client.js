// The official client, wired to record every exchange so that each response
// can be checked against the published document.

import assert from 'node:assert/strict';
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { operationFor, responseSpec, validateBody, validateRequest } from './schema.js';

export { GitBookAPIError };

/** Every exchange made by clients of this process, in order. */
export const exchanges = [];
const byResponse = new WeakMap();

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function recordingFetch() {
    return async (input, init = {}) => {
        const method = (init.method || 'GET').toUpperCase();
        const url = new URL(typeof input === 'string' ? input : input.url);
        const res = await fetch(input, init);
        const text = await res.text();
        const below = url.pathname.replace(/^\/v1(?=\/|$)/, '') || '/';
        const ex = {
            method,
            url: url.toString(),
            requestBody: typeof init.body === 'string' ? init.body : undefined,
            status: res.status,
            contentType: res.headers.get('content-type') || '',
            text,
            operationId: operationFor(method, below),
            problem: null,
        };
        ex.problem = autoCheck(ex);
        if (ex.operationId) {
            let parsed;
            try {
                parsed = ex.requestBody === undefined ? undefined : JSON.parse(ex.requestBody);
            } catch {
                parsed = ex.requestBody;
            }
            ex.requestProblem = validateRequest(ex.operationId, parsed);
        }
        exchanges.push(ex);
        const body = NULL_BODY_STATUSES.has(res.status) ? null : text;
        const copy = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
        byResponse.set(copy, ex);
        return copy;
    };
}

function describe(ex) {
    const req = ex.requestBody ? ` ${ex.requestBody}` : '';
    return `${ex.method} ${ex.url}${req} -> ${ex.status} ${ex.text ? ex.text.slice(0, 2000) : '(empty body)'}`;
}

/** Schema check of a recorded exchange, independent of what a test expects. */
function autoCheck(ex) {
    if (!ex.operationId) return `no operation of the document matches ${ex.method} ${ex.url}`;
    const r = responseSpec(ex.operationId, ex.status);
    if (!r.declared && ex.status < 400) return `${ex.operationId} does not declare status ${ex.status}`;
    const expectsJson = r.json !== undefined || ex.status >= 400;
    if (!expectsJson) {
        if (r.declared && r.empty && ex.text !== '') return `${ex.operationId} ${ex.status} must have no body`;
        return null;
    }
    if (!ex.contentType.includes('application/json')) {
        return `${ex.operationId} ${ex.status}: content-type is "${ex.contentType}", not application/json`;
    }
    let body;
    try {
        body = JSON.parse(ex.text);
    } catch {
        return `${ex.operationId} ${ex.status}: body is not JSON`;
    }
    ex.json = body;
    return validateBody(ex.operationId, ex.status, body);
}

/** A client authenticated with `token` against `server` (or a URL). */
export function client(server, token) {
    const endpoint = typeof server === 'string' ? server : server.url;
    return new GitBookAPI({ endpoint, authToken: token, serviceBinding: { fetch: recordingFetch() } });
}

/**
 * Run one client call and check it:
 *   - the request hit operation `op` of the document;
 *   - the HTTP status is `status` (or one of them);
 *   - a JSON body is valid against the schema the document declares for
 *     (op, status), and error bodies also against components.schemas.Error
 *     with error.code equal to the status;
 *   - a response declared without content has an empty body.
 * Returns { status, data } where data is the parsed body (undefined when empty).
 */
export async function expect(op, status, fn) {
    const wanted = Array.isArray(status) ? status : [status];
    let response;
    try {
        response = await fn();
    } catch (err) {
        if (err instanceof GitBookAPIError) response = err.response;
        else if (err?.response instanceof Response) response = err.response;
        else throw err;
    }
    const ex = byResponse.get(response);
    assert.ok(ex, `${op}: the response was not recorded`);
    assert.equal(ex.operationId, op, `request went to ${ex.operationId}, not ${op}: ${describe(ex)}`);
    if (ex.requestProblem) assert.fail(`the test sent a request the document does not allow:\n${ex.requestProblem}\n${describe(ex)}`);
    assert.ok(
        wanted.includes(ex.status),
        `${op}: expected HTTP ${wanted.join(' or ')}, got ${describe(ex)}`,
    );
    const r = responseSpec(op, ex.status);
    if (ex.status < 400 && r.declared && r.empty) {
        assert.equal(ex.text, '', `${op} ${ex.status} is declared without content, got a body: ${describe(ex)}`);
        return { status: ex.status, data: undefined };
    }
    if (ex.problem) assert.fail(`${op} ${ex.status}: response does not conform:\n${ex.problem}\n${describe(ex)}`);
    return { status: ex.status, data: ex.json };
}

/** Shortcut for an expected error: returns the parsed error body. */
export async function expectError(op, status, fn) {
    const { data } = await expect(op, status, fn);
    return data;
}

/**
 * Walk a list operation page by page. `fetchPage(page)` calls the client
 * with the given cursor (undefined for the first page). Checks each page
 * against the schema, that no page holds more than `limit` items, that the
 * walk ends, that no item repeats (by `key`), and that `count`, when given,
 * equals the number of items walked. Returns { items, pages }.
 */
export async function walk(op, fetchPage, { limit, key = (x) => x.id, maxPages = 200 } = {}) {
    const items = [];
    const seen = new Set();
    const counts = [];
    let page;
    let pages = 0;
    for (;;) {
        const { data } = await expect(op, 200, () => fetchPage(page));
        pages++;
        assert.ok(pages <= maxPages, `${op}: more than ${maxPages} pages; the cursor does not advance`);
        if (limit !== undefined) {
            assert.ok(data.items.length <= limit, `${op}: page has ${data.items.length} items, limit was ${limit}`);
        }
        if (data.count !== undefined) counts.push(data.count);
        for (const it of data.items) {
            const k = key(it);
            assert.ok(!seen.has(k), `${op}: item ${k} appears twice while paging`);
            seen.add(k);
            items.push(it);
        }
        if (!data.next) break;
        assert.equal(typeof data.next.page, 'string');
        assert.notEqual(data.next.page, page, `${op}: next.page repeats the current cursor`);
        if (limit !== undefined) {
            assert.ok(data.items.length > 0, `${op}: an empty page still has a next cursor`);
        }
        page = data.next.page;
    }
    for (const c of counts) {
        assert.equal(c, items.length, `${op}: count is ${c} but ${items.length} items were listed`);
    }
    return { items, pages };
}

/** Exchanges whose response did not conform, whether a test looked at them or not. */
export function nonConforming() {
    return exchanges.filter((ex) => ex.problem).map((ex) => `${ex.problem}\n  ${describe(ex)}`);
}

// Response validation against the OpenAPI document published in @gitbook/api.
//
// The document is read from node_modules at run time; nothing of it is kept
// in this repository. OpenAPI 3.0 schemas are turned into JSON Schema
// draft-07 on the fly:
//   - `nullable: true` becomes `anyOf: [<schema>, {type: "null"}]`;
//   - local references (`#/components/...`) are rewritten to point into a
//     schema registered under the id `openapi.json`;
//   - OpenAPI-only keywords (discriminator, example, x-*) are ignored.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const require = createRequire(import.meta.url);
export const SPEC_PATH = require.resolve('@gitbook/api/spec/openapi.json');
export const spec = JSON.parse(readFileSync(SPEC_PATH, 'utf8'));

const DOC_ID = 'openapi.json';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function convert(node) {
    if (Array.isArray(node)) return node.map(convert);
    if (node === null || typeof node !== 'object') return node;
    const out = {};
    for (const [key, value] of Object.entries(node)) {
        if (key === 'nullable') continue;
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) {
            out.$ref = DOC_ID + value;
            continue;
        }
        out[key] = convert(value);
    }
    if (node.nullable === true) {
        return { anyOf: [out, { type: 'null' }] };
    }
    return out;
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
// Formats the document uses that are annotations only.
ajv.addFormat('emoji', true);
ajv.addFormat('icon', true);
assertFormatsChecked();
const components = convert(spec.components);
readEmptyDocumentAsTyped(components.schemas.Document);
ajv.addSchema({ $id: DOC_ID, components });

/**
 * Every answer is checked against the formats the document declares; above
 * all `format: uri` (every `urls.*`), which a URL with raw non-ASCII
 * characters or spaces does not meet. Fail at load when that check is
 * off, rather than pass every answer.
 */
function assertFormatsChecked() {
    const uri = ajv.compile({ type: 'string', format: 'uri' });
    const bad = ['http://example.com/app/s/1/café-中文', 'http://example.com/a b', '/relative/path'];
    for (const u of bad) {
        if (uri(u)) throw new Error(`format "uri" is not checked: ${u} passes`);
    }
    if (!uri('http://example.com/app/s/1/caf%C3%A9-%E4%B8%AD%E6%96%87#%C3%BCber-uns')) {
        throw new Error('format "uri" refuses a percent-encoded URL');
    }
}

/**
 * The document's `Document` is a oneOf of `{markdown}`, `{document}` and an
 * "Empty" variant written `{properties: {}, additionalProperties: false}`.
 * RevisionPageDocument joins `Document` with the page's own fields through
 * allOf, where that variant can never hold (every page has an id), so a page
 * that carries neither `markdown` nor `document`, as every page of a page
 * tree does, could never validate. The package's TypeScript types read the
 * variant as `{}`; it is checked here as what it says: neither `markdown`
 * nor `document`.
 */
function readEmptyDocumentAsTyped(document) {
    const arms = document?.oneOf ?? [];
    const i = arms.findIndex((a) => a.title === 'Empty' && a.additionalProperties === false);
    if (i < 0) throw new Error('components.schemas.Document has no "Empty" variant any more; review readEmptyDocumentAsTyped');
    arms[i] = { title: 'Empty', type: 'object', not: { anyOf: [{ required: ['markdown'] }, { required: ['document'] }] } };
}

/** Resolve a `#/components/...` reference of the raw document. */
function deref(obj) {
    let seen = 0;
    while (obj && obj.$ref) {
        if (++seen > 20) throw new Error(`reference loop at ${obj.$ref}`);
        const parts = obj.$ref.replace(/^#\//, '').split('/');
        obj = parts.reduce((o, p) => o?.[p.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
    }
    return obj;
}

/** Index of operations: operationId -> { method, path, op, params }. */
export const operations = new Map();
const matchers = [];
for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of HTTP_METHODS) {
        const op = item[method];
        if (!op?.operationId) continue;
        operations.set(op.operationId, { method: method.toUpperCase(), path, op });
        const segments = path.split('/').filter(Boolean);
        const literal = segments.filter((s) => !s.startsWith('{')).length;
        const re = new RegExp('^/' + segments.map(segmentRe).join('/') + '/?$');
        matchers.push({ method: method.toUpperCase(), re, literal, operationId: op.operationId });
    }
}
// Most literal segments first, so `/orgs/{id}/members` wins over `/orgs/{id}/{x}`.
matchers.sort((a, b) => b.literal - a.literal);

/** A path segment as a pattern: a parameter is one segment, except a page path, which spans several. */
function segmentRe(s) {
    if (s === '{pagePath}') return '.+';
    return s.startsWith('{') ? '[^/]+' : escapeRe(s);
}

function escapeRe(s) {
    return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** operationId for a request, from its method and path below /v1. */
export function operationFor(method, pathBelowV1) {
    const m = matchers.find((x) => x.method === method.toUpperCase() && x.re.test(pathBelowV1));
    return m?.operationId;
}

/**
 * What the document declares for an operation and status:
 * { declared: bool, json: schema|undefined, empty: bool, source: string }.
 */
export function responseSpec(operationId, status) {
    const entry = operations.get(operationId);
    if (!entry) throw new Error(`operation ${operationId} is not in the published document`);
    const responses = entry.op.responses || {};
    const key = String(status);
    let resp = responses[key];
    let source = `${operationId} ${key}`;
    if (!resp && status >= 400) {
        resp = responses.default;
        source = `${operationId} default`;
    }
    if (!resp) return { declared: false, json: undefined, empty: false, source };
    const r = deref(resp);
    const schema = r.content?.['application/json']?.schema;
    return { declared: true, json: schema, empty: !r.content, source };
}

const validators = new Map();

function compiled(cacheKey, rawSchema) {
    let v = validators.get(cacheKey);
    if (!v) {
        v = ajv.compile(convert(rawSchema));
        validators.set(cacheKey, v);
    }
    return v;
}

/** The error body schema: components.schemas.Error. */
export const ERROR_SCHEMA_NAME = 'Error';

/**
 * Validate a parsed JSON body. Returns null when valid, or a readable
 * description of the errors.
 */
export function validateBody(operationId, status, body) {
    const r = responseSpec(operationId, status);
    const problems = [];
    if (r.json) {
        const v = compiled(r.source, r.json);
        if (!v(body)) problems.push(`against ${r.source}: ${ajv.errorsText(v.errors, { separator: '\n  ' })}`);
    } else if (status < 400) {
        problems.push(`the document declares no JSON body for ${r.source}`);
    }
    if (status >= 400) {
        const v = compiled('#Error', { $ref: `#/components/schemas/${ERROR_SCHEMA_NAME}` });
        if (!v(body)) {
            problems.push(`against components.schemas.Error: ${ajv.errorsText(v.errors, { separator: '\n  ' })}`);
        } else if (body.error.code !== status) {
            problems.push(`error.code is ${body.error.code}, HTTP status is ${status}`);
        }
    }
    return problems.length ? problems.join('\n') : null;
}

/**
 * Validate a request body against the operation's requestBody schema.
 * Returns null when valid (or when the operation takes no JSON body and
 * none is sent), or a readable description of the errors.
 */
export function validateRequest(operationId, body) {
    const entry = operations.get(operationId);
    if (!entry) return `operation ${operationId} is not in the published document`;
    const rb = deref(entry.op.requestBody);
    const schema = rb?.content?.['application/json']?.schema;
    if (body === undefined) {
        return rb?.required ? `${operationId} requires a request body` : null;
    }
    if (!schema) return `${operationId} takes no JSON request body`;
    const v = compiled(`${operationId} request`, schema);
    return v(body) ? null : `request of ${operationId}: ${ajv.errorsText(v.errors, { separator: '\n  ' })}`;
}

/**
 * Validate a body against a named schema of the document's components,
 * for answers of operations the document does not have. Returns null when
 * valid, or a readable description of the errors.
 */
export function validateComponent(name, body) {
    if (!spec.components.schemas[name]) return `components.schemas.${name} is not in the published document`;
    const v = compiled(`#${name}`, { $ref: `#/components/schemas/${name}` });
    return v(body) ? null : `against components.schemas.${name}: ${ajv.errorsText(v.errors, { separator: '\n  ' })}`;
}

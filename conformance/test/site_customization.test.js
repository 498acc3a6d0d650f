// The site customization settings as the Go declaration gives them
// (internal/quire/site_customization.go), checked against the published
// SiteCustomizationSettings without a server:
//   - the defaults of a new site and settings with every optional member,
//     as the domain marshals them (internal/quire/testdata, kept equal to
//     the Go values by the domain's tests), validate against the published
//     schema;
//   - the schema the declaration gives the API layer
//     (internal/httpapi/testdata/site_customization_schema.json, kept equal
//     to it by TestSiteCustomizationSchemaGolden) has the published members,
//     required members, enums (each with its full list) and limits.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { spec, validateComponent } from '../lib/schema.js';
import { REPO_ROOT } from '../lib/server.js';

const readJSON = (...parts) => JSON.parse(readFileSync(join(REPO_ROOT, ...parts), 'utf8'));

describe('site customization declaration', () => {
    for (const name of ['site_customization_default.json', 'site_customization_full.json']) {
        it(`${name} validates against SiteCustomizationSettings`, () => {
            const err = validateComponent('SiteCustomizationSettings', readJSON('internal', 'quire', 'testdata', name));
            assert.equal(err, null, err);
        });
    }

    it('declares the published members, required members, enums and limits', () => {
        const ours = readJSON('internal', 'httpapi', 'testdata', 'site_customization_schema.json');
        const problems = [];
        compare(ours, ours, { $ref: '#/components/schemas/SiteCustomizationSettings' }, 'SiteCustomizationSettings', problems);
        assert.deepEqual(problems, []);
    });
});

/** Follow local references of a document. */
function resolve(doc, node) {
    let seen = 0;
    while (node && node.$ref) {
        if (++seen > 20) throw new Error(`reference loop at ${node.$ref}`);
        node = node.$ref
            .replace(/^#\//, '')
            .split('/')
            .reduce((o, p) => o?.[p], doc);
    }
    return node;
}

const isNullArm = (s) => s.type === 'null' || (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null);
const types = (s) => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);
const sorted = (a) => [...a].map(String).sort();

/**
 * Compare our schema at a path with the published one, recording every
 * difference a client could notice: a member, a required member, an enum
 * value, a limit, or null being allowed.
 */
function compare(oursDoc, oursNode, pubNode, path, problems, seen = new Set()) {
    const o = resolve(oursDoc, oursNode);
    const p = resolve(spec, pubNode);
    if (!o || !p) {
        problems.push(`${path}: missing schema (ours ${!!o}, published ${!!p})`);
        return;
    }
    const key = `${path}`;
    if (seen.has(key)) return;
    seen.add(key);

    if (p.oneOf) {
        const arms = p.oneOf.map((a) => resolve(spec, a));
        const nonNull = arms.filter((a) => !isNullArm(a));
        if (nonNull.length < arms.length && !types(o).includes('null') && !(o.oneOf ?? []).some(isNullArm)) {
            problems.push(`${path}: published allows null, ours does not`);
        }
        if (o.oneOf) {
            if (o.oneOf.length !== nonNull.length) problems.push(`${path}: ${o.oneOf.length} alternatives, published ${nonNull.length}`);
            nonNull.forEach((arm, i) => o.oneOf[i] && compare(oursDoc, o.oneOf[i], arm, `${path}|${i}`, problems, seen));
            return;
        }
        if (nonNull.length === 1) {
            compare(oursDoc, o, nonNull[0], path, problems, seen);
            return;
        }
        // Alternatives of objects declared as one object: every member of
        // every alternative must be there, with its own checks.
        for (const arm of nonNull) {
            for (const [name, sub] of Object.entries(arm.properties ?? {})) {
                if (name === 'kind') continue; // the discriminator of each alternative
                if (!o.properties?.[name]) problems.push(`${path}.${name}: missing`);
                else compare(oursDoc, o.properties[name], sub, `${path}.${name}`, problems, seen);
            }
        }
        return;
    }

    if (p.enum && !p.enum.includes(null)) {
        if (!o.enum) problems.push(`${path}: published enum ${p.enum.join(',')}, ours none`);
        else if (sorted(o.enum).join() !== sorted(p.enum).join())
            problems.push(`${path}: enum ${sorted(o.enum).join(',')}, published ${sorted(p.enum).join(',')}`);
    }
    for (const limit of ['minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'minItems', 'maxItems', 'format']) {
        if (limit === 'minLength' && p[limit] === 0 && o[limit] === undefined) continue; // the same
        if (p[limit] !== undefined && o[limit] !== p[limit]) problems.push(`${path}: ${limit} ${o[limit]}, published ${p[limit]}`);
    }
    if (p.type && !types(o).includes(p.type)) problems.push(`${path}: type ${types(o).join('|')}, published ${p.type}`);
    if (p.type === 'array' && types(o).includes('null')) problems.push(`${path}: ours allows null, published does not`);

    if (p.properties) {
        const pubNames = Object.keys(p.properties).sort();
        const ourNames = Object.keys(o.properties ?? {}).sort();
        for (const n of pubNames) if (!ourNames.includes(n)) problems.push(`${path}.${n}: missing`);
        for (const n of ourNames) if (!pubNames.includes(n)) problems.push(`${path}.${n}: not published`);
        if (sorted(o.required ?? []).join() !== sorted(p.required ?? []).join())
            problems.push(`${path}: required ${sorted(o.required ?? []).join(',')}, published ${sorted(p.required ?? []).join(',')}`);
        for (const n of pubNames) {
            if (o.properties?.[n]) compare(oursDoc, o.properties[n], p.properties[n], `${path}.${n}`, problems, seen);
        }
    }
    if (p.items) compare(oursDoc, o.items ?? {}, p.items, `${path}[]`, problems, seen);
}

/**
 * How the API sends the built SPA and its answers: compressed (brotli or gzip, as the browser
 * accepts), hashed assets cached as immutable, index.html revalidated, deep links answered with
 * index.html (naming the route's own chunks where the build lists them), a missing asset a 404.
 * Runs on a small dist of its own, so no SPA build is needed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp, signIn, type TestApp } from '../support/http';

const INDEX = `<!doctype html><html lang="en"><head><title>Test</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
/** index.html as the API sends it: the lab's zone named for the SPA (the tests' LAB_TIME_ZONE; web/src/format.ts reads it). */
const SENT = INDEX.replace('</head>', '<meta name="lab-time-zone" content="America/New_York"></head>');
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;
/** What the build writes to .vite/route-preloads.json (web/vite.config.ts): one route's chunks. */
const ROUTE_PRELOADS = [
  {
    pattern: '^\\/reports\\/patient_result\\/(?<barcode>[^/]+)\\/?$',
    scripts: ['/assets/patient-result-Xy1.js', '/assets/sign-in-Zz2.js'],
    styles: ['/assets/patient-result-Xy1.css'],
    fetch: '/api/reports/patient-result/__barcode__?token=__token__',
  },
];

/** The body as the client reads it (supertest decodes gzip and brotli as a browser does). */
const bodyText = (res: request.Response): string => (Buffer.isBuffer(res.body) ? res.body.toString() : res.text);

describe('serving the SPA: compression and caching', () => {
  let t: TestApp;
  let dist: string;
  before(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    const write = (name: string, text: string) => {
      writeFileSync(path.join(dist, name), text);
      writeFileSync(path.join(dist, `${name}.br`), brotliCompressSync(text));
      writeFileSync(path.join(dist, `${name}.gz`), gzipSync(text));
    };
    write('index.html', INDEX);
    write('assets/index-AbC123.js', SCRIPT);
    mkdirSync(path.join(dist, '.vite'));
    writeFileSync(path.join(dist, '.vite/route-preloads.json'), JSON.stringify(ROUTE_PRELOADS));
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await buildTestApp({ WEB_DIST: dist });
  });
  after(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends a hashed asset in its build-time brotli form, cached for a year as immutable', async () => {
    const res = await request(t.app).get('/assets/index-AbC123.js').set('Accept-Encoding', 'gzip, deflate, br').buffer(true).expect(200);
    expect(res.headers['content-encoding']).to.equal('br');
    expect(res.headers['content-type']).to.match(/^text\/javascript|^application\/javascript/);
    expect(res.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    expect(res.headers.vary).to.match(/Accept-Encoding/i);
    expect(bodyText(res)).to.equal(SCRIPT);
  });

  it('sends gzip to a browser that accepts only gzip, and the plain file to one that accepts none', async () => {
    const gz = await request(t.app).get('/assets/index-AbC123.js').set('Accept-Encoding', 'gzip').buffer(true).expect(200);
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(bodyText(gz)).to.equal(SCRIPT);
    const plain = await request(t.app).get('/assets/index-AbC123.js').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(plain.text).to.equal(SCRIPT);
  });

  it('answers a deep link with index.html naming the lab\'s time zone, compressed and revalidated on every visit', async () => {
    for (const url of ['/', '/provider-clinic/42/pending', '/index.html']) {
      const res = await request(t.app).get(url).set('Accept-Encoding', 'br').buffer(true).expect(200);
      expect(res.headers['content-encoding'], url).to.equal('br');
      expect(res.headers['content-type'], url).to.match(/^text\/html/);
      expect(res.headers['cache-control'], url).to.equal('no-cache');
      expect(bodyText(res), url).to.equal(SENT);
    }
  });

  const chunkTags =
    '<link rel="stylesheet" crossorigin href="/assets/patient-result-Xy1.css">' +
    '<link rel="modulepreload" crossorigin href="/assets/patient-result-Xy1.js">' +
    '<link rel="modulepreload" crossorigin href="/assets/sign-in-Zz2.js">';

  it("names a route's own chunks and its first API read in the index.html it sends for that route, kept by no cache", async () => {
    const res = await request(t.app).get('/reports/patient_result/41000000000001?token=a%26b%22c').set('Accept-Encoding', 'br').buffer(true).expect(200);
    expect(res.headers['content-encoding']).to.equal('br');
    // The page names the link's token: this request's alone.
    expect(res.headers['cache-control']).to.equal('no-store');
    // The same URL the SPA's fetcher asks for (encodeURIComponent), as an HTML attribute.
    const read = '<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/reports/patient-result/41000000000001?token=a%26b%22c">';
    expect(bodyText(res)).to.equal(SENT.replace('</head>', `${read}${chunkTags}</head>`));
  });

  it('names only the chunks when the read lacks a value (no token), and then the page may be cached for revalidation', async () => {
    const res = await request(t.app).get('/reports/patient_result/41000000000001').buffer(true).expect(200);
    expect(res.headers['cache-control']).to.equal('no-cache');
    expect(bodyText(res)).to.equal(SENT.replace('</head>', `${chunkTags}</head>`));
  });

  it('keeps the build-time files out of reach', async () => {
    await request(t.app).get('/.vite/route-preloads.json').expect((res) => {
      expect(res.text).not.to.include('patient_result');
    });
  });

  it('answers a missing asset with a 404, not index.html', async () => {
    const res = await request(t.app).get('/assets/gone-Zz9.js').expect(404);
    expect(res.headers['content-type']).to.match(/json/);
  });

  it('answers a malformed URL (broken percent-encoding) with the product\'s JSON error, never an HTML page', async () => {
    for (const url of ['/%E0%A4%A', '/api/%E0%A4%A', '/assets/%E0%A4%A.js', '/provider-clinic/%E0%A4%A/patients']) {
      const res = await request(t.app).get(url);
      expect(res.status, url).to.equal(400);
      expect(res.headers['content-type'], url).to.match(/^application\/json/);
      expect(res.body.error, url).to.deep.equal({ code: 'bad_request', message: 'The request is malformed' });
    }
  });

  it('caches other static files for an hour', async () => {
    const res = await request(t.app).get('/favicon.svg').expect(200);
    expect(res.headers['cache-control']).to.equal('public, max-age=3600');
  });

  it('compresses API answers on the fly (over 1 KiB), as the browser accepts, and sends a page uncompressed with its length', async () => {
    // The demo data's contacts (people of every role) make an answer of a few KiB.
    const admin = await signIn(t.app, 'admin', 'admin');
    const plain = await admin.agent.get('/api/admin/contacts').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(plain.text.length).to.be.greaterThan(1024);
    // A page uncompressed says its length rather than going out in chunks.
    expect([plain.headers['content-length'], plain.headers['transfer-encoding']]).to.deep.equal([String(Buffer.byteLength(plain.text)), undefined]);
    for (const encoding of ['br', 'gzip']) {
      const res = await admin.agent.get('/api/admin/contacts').set('Accept-Encoding', encoding).expect(200);
      expect(res.headers['content-encoding'], encoding).to.equal(encoding);
      expect(res.body, encoding).to.deep.equal(plain.body);
    }
  });
});

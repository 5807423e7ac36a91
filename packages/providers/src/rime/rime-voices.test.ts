// Rime's live speaker listing against the fake: the public catalog (no key sent), speakers merged across models
// and languages, phantom and retired entries skipped, labels from voice_details, errors without upstream text.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { rejectionOf } from '../__fixtures__/speech-helpers.js';
import { listRimeVoices, readRimeCatalog } from './rime-voices.js';

let fake: FakeProviderServer;
const context = () => ({ signal: AbortSignal.timeout(5000) });

beforeAll(async () => {
  fake = await startFakeProvider('rime');
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.setBehavior('normal');
});

describe('rime speaker listing', () => {
  it('reads both public files without sending the key, one voice per speaker', async () => {
    const voices = await listRimeVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context());
    expect(fake.requests.map((request) => request.path)).toEqual(['/data/voices/all-v2.json', '/data/voices/voice_details.json']);
    expect(fake.requests.every((request) => request.headers.authorization === undefined)).toBe(true);
    const ids = voices.map((voice) => voice.id);
    expect(ids).toHaveLength(new Set(ids).size);
    expect(ids).toEqual(expect.arrayContaining(['luna', 'cove', 'isa', 'taru']));
    expect(ids).not.toContain('hin');
    expect(ids).not.toContain('old_timer');
  });

  it('merges models and languages and takes labels from voice_details', async () => {
    const voices = await listRimeVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context());
    const byId = new Map(voices.map((voice) => [voice.id, voice]));
    expect(byId.get('luna')).toEqual({
      id: 'luna', name: 'Luna', language: 'en', modelCompatibility: ['arcana', 'coda'],
      labels: { gender: 'female', age: 'Young Adult', country: 'United States', description: 'Warm and bright' },
    });
    expect(byId.get('cove')!.modelCompatibility).toEqual(['mistv3', 'mistv2']);
    expect(byId.get('isa')).toMatchObject({ language: 'es', labels: { gender: 'female', country: 'Mexico' } });
    expect(byId.get('taru')).toMatchObject({ language: 'hi', modelCompatibility: ['coda'] });
    expect(byId.get('peak')!.labels).toEqual({});
  });

  it('fails on the catalog\'s errors without upstream text', async () => {
    fake.setBehavior({ status: 500 });
    const error = await rejectionOf(listRimeVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context()));
    expect(error).toMatchObject({ failure: 'server_error', statusCode: 500 });
    expect(String((error as Error).message)).not.toContain(fake.leakMarker);
  });

  it('still lists the speakers, without labels, when voice_details fails', async () => {
    const server = createServer((request, response) => {
      if (request.url === '/data/voices/all-v2.json') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ coda: { eng: ['luna'] } }));
      } else {
        response.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const voices = await listRimeVoices({ baseUrl: `http://127.0.0.1:${port}` }, context());
      expect(voices).toEqual([{ id: 'luna', name: 'Luna', language: 'en', labels: {}, modelCompatibility: ['coda'] }]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a catalog that is not an object and skips malformed entries', () => {
    expect(() => readRimeCatalog([])).toThrow('rime voice listing failed: bad_response');
    const speakers = readRimeCatalog({ arcana: { eng: ['ok', 'not ok', 3, 'eng'], xx: 'nope' }, mistv2: [] });
    expect([...speakers.keys()]).toEqual(['ok']);
  });
});

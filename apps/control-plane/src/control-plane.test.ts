// Body-reading failures a client causes are 400 invalid_body, never 500 (the fuzz found a charset one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@voice-router/ledger';
import { createLogger } from '@voice-router/service-kit';
import { createControlPlaneApp } from './control-plane.js';
import { listen } from './listen.js';

let database: Database;
let server: { port: number; close(): Promise<void> };

beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite-memory' });
  server = await listen(createControlPlaneApp({ database, logger: createLogger({ name: 'test', level: 'error' }) }), '127.0.0.1', 0);
});

afterAll(async () => {
  await server?.close();
  await database?.close();
});

describe('unreadable requests', () => {
  it('answers a path parameter that is not valid percent-encoding with 400 invalid_body', async () => {
    for (const id of ['%C0%AF', '%E0%A4%A', '%FF']) {
      const response = await fetch(`http://127.0.0.1:${server.port}/v1/keys/${id}`, { method: 'DELETE', headers: { authorization: 'Bearer vr_session_x' } });
      expect(response.status, id).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_body', details: 'the path is not valid percent-encoding' });
    }
  });

  it.each([
    ['an unsupported charset', { 'content-type': 'application/json; charset=latin1' }, '{}'],
    ['an unsupported content encoding', { 'content-type': 'application/json', 'content-encoding': 'zstd' }, '{}'],
    ['malformed JSON', { 'content-type': 'application/json' }, '{"device_code":'],
  ])('answers %s with 400 invalid_body', async (_name, headers, body) => {
    for (const path of ['/v1/auth/poll', '/v1/keys', '/v1/audio/speech/']) {
      const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { method: 'POST', headers, body });
      expect(response.status, path).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_body' });
    }
  });
});

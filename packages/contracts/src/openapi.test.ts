import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { renderOpenApiFiles } from '../scripts/render-openapi.mjs';
import { ProviderSchema, ProviderStatusSchema } from './catalog.js';
import { ErrorBodySchema, errorBody, UPSTREAM_FAILURE_CODES } from './errors.js';
import { buildOpenApiDocument } from './openapi.js';
import { SpeechRequestSchema, countCodePoints, parseModel } from './speech.js';

describe('the OpenAPI document', () => {
  it('is committed and current, with client types generated from it', async () => {
    const files: Record<string, string> = await renderOpenApiFiles(buildOpenApiDocument);
    for (const [path, text] of Object.entries(files)) {
      const committed = fs.readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
      expect(committed, `${path} is stale: run node scripts/write-openapi.mjs after a build`).toBe(text);
    }
  });

  it('references only schemas it defines', () => {
    const document = buildOpenApiDocument();
    const text = JSON.stringify(document);
    for (const match of text.matchAll(/#\/components\/schemas\/(\w+)/g)) {
      expect(document.components.schemas).toHaveProperty(match[1]!);
    }
  });
});

describe('spec-exact shapes', () => {
  const document = buildOpenApiDocument();

  it('types a key\'s maxConcurrency and rateLimitPerMinute as plain integers, never null', () => {
    const apiKey = document.components.schemas.ApiKey as { properties: Record<string, Record<string, unknown>>; required: string[] };
    for (const field of ['maxConcurrency', 'rateLimitPerMinute']) {
      expect(apiKey.properties[field]).toMatchObject({ type: 'integer' });
      expect(JSON.stringify(apiKey.properties[field])).not.toContain('null');
      expect(apiKey.required).toContain(field);
    }
  });

  it('asks for a bearer token on the catalog and documents the 401', () => {
    for (const path of ['/v1/voices', '/v1/providers', '/v1/status'] as const) {
      const operation = document.paths[path].get as { security?: unknown[]; responses: Record<string, unknown> };
      expect(operation.security).toEqual([{ apiKey: [] }, { session: [] }]);
      expect(operation.responses).toHaveProperty('401');
    }
  });

  it('leaves only device-code start, its poll, this document and the Stripe webhook (signed instead) without a token', () => {
    const open: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item as Record<string, { security?: unknown[] }>)) {
        expect(operation.security, `${method} ${path}`).toBeDefined();
        if (operation.security!.length === 0) open.push(`${method} ${path}`);
      }
    }
    expect(open.sort()).toEqual(['get /v1/openapi.json', 'post /v1/auth/device-code', 'post /v1/auth/poll', 'post /v1/billing/webhook']);
  });
});

describe('error bodies and provider status', () => {
  it('carries an optional category code next to the error', () => {
    expect(errorBody('upstream_error', 'openai failed', 'upstream_rate_limited')).toEqual({
      error: 'upstream_error', code: 'upstream_rate_limited', details: 'openai failed',
    });
    expect(errorBody('invalid_body')).toEqual({ error: 'invalid_body' });
    expect(ErrorBodySchema.safeParse({ error: 'upstream_error', code: 'upstream_timeout' }).success).toBe(true);
  });

  it('documents every upstream failure code on the speech 502', () => {
    const document = buildOpenApiDocument();
    const description = document.paths['/v1/audio/speech'].post.responses['502'].description;
    for (const code of Object.keys(UPSTREAM_FAILURE_CODES)) expect(description).toContain(code);
    expect(document.paths['/v1/audio/speech'].post.responses['503'].headers).toHaveProperty('X-Router-Breaker-State');
  });

  it('knows the breaker states and types lastSmokeTest as a string', () => {
    expect(ProviderStatusSchema.safeParse({ id: 'openai', state: 'degraded', reason: 'circuit_half_open' }).success).toBe(true);
    expect(ProviderStatusSchema.safeParse({ id: 'openai', state: 'unavailable', reason: 'circuit_open' }).success).toBe(true);
    expect(ProviderStatusSchema.safeParse({ id: 'openai', state: 'broken' }).success).toBe(false);
    const provider = {
      id: 'p', name: 'P', website: 'w', models: [], provider_options: [{ name: 'stability', type: 'number', minimum: 0, maximum: 1 }], mp3_quality: 'mp3_44100_128',
      capabilities: { supportedFormats: [], unwiredCapabilities: [], quirks: [] },
    };
    expect(ProviderSchema.safeParse({ ...provider, capabilities: { ...provider.capabilities, lastSmokeTest: 'never' } }).success).toBe(true);
    expect(ProviderSchema.safeParse({ ...provider, capabilities: { ...provider.capabilities, lastSmokeTest: null } }).success).toBe(false);
  });
});

describe('speech request parsing', () => {
  it('splits the model at the first slash only', () => {
    expect(parseModel('openai/tts-1')).toEqual({ ok: true, provider: 'openai', modelId: 'tts-1' });
    expect(parseModel('local/espeak/ng')).toEqual({ ok: true, provider: 'local', modelId: 'espeak/ng' });
    for (const bad of ['tts-1', '/tts-1', 'openai/', 'Open AI/x', '../x/y']) expect(parseModel(bad).ok).toBe(false);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(countCodePoints('héllo')).toBe(5);
    expect(countCodePoints('👋🏽')).toBe(2);
    expect(countCodePoints('a\ud800b')).toBe(3);
    expect(countCodePoints('a😀é')).toBe(3);
  });

  it('counts code points as for…of does, whatever the mix of surrogates (paired, lone, reversed, at either end)', () => {
    const units = ['a', 'é', '漢', '\uD83D', '\uDE00', '\uD800', '\uDFFF', '\uDBFF', '\uDC00'];
    let seed = 7;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647); // MINSTD: exact in doubles
    for (let round = 0; round < 5_000; round++) {
      const text = Array.from({ length: next() % 13 }, () => units[next() % units.length]).join('');
      expect(countCodePoints(text), JSON.stringify(text)).toBe([...text].length);
    }
    expect(countCodePoints('Voice Router, ')).toBe(14);
    expect(countCodePoints('x'.repeat(4_096))).toBe(4_096);
    expect(countCodePoints('😀'.repeat(2_048))).toBe(2_048);
  });

  it('defaults the format and accepts OpenAI extras', () => {
    const parsed = SpeechRequestSchema.parse({ model: 'openai/tts-1', input: 'hi', voice: 'alloy', stream_format: 'audio' });
    expect(parsed.response_format).toBe('mp3');
    expect(SpeechRequestSchema.safeParse({ model: 'openai/tts-1', input: 'hi', voice: 'alloy', response_format: 'opus' }).success).toBe(false);
    expect(SpeechRequestSchema.safeParse({ model: 'openai/tts-1', input: 'hi', voice: 5 }).success).toBe(false);
  });
});

describe('per-key limits in the document', () => {
  const document = buildOpenApiDocument();
  const operation = (path: string, method = 'get') =>
    (document.paths as Record<string, Record<string, { responses: Record<string, { description: string; headers?: Record<string, unknown> }> }>>)[path]![method]!;

  it('lists 429 with Retry-After on every data-plane endpoint, and tells the two 429 cases apart on speech', () => {
    for (const [path, method] of [
      ['/v1/audio/speech', 'post'], ['/v1/voices', 'get'], ['/v1/providers', 'get'], ['/v1/status', 'get'], ['/v1/credits', 'get'], ['/v1/credits/activity', 'get'],
    ] as const) {
      const limited = operation(path, method).responses['429'];
      expect(limited, path).toBeDefined();
      expect(limited!.headers).toHaveProperty('Retry-After');
      expect(limited!.description).toContain('rate_limit_exceeded');
    }
    expect(operation('/v1/audio/speech', 'post').responses['429']!.description).toContain('concurrency_limit_exceeded');
    expect(operation('/v1/audio/speech', 'post').responses['402']!.description).toBe('insufficient_credit, spend_limit_exceeded');
  });

  it('documents PATCH /v1/keys/{id} and an optional `code` on the error body', () => {
    expect(operation('/v1/keys/{id}', 'patch').responses).toHaveProperty('404');
    const error = document.components.schemas.Error as { properties: Record<string, unknown>; required: string[] };
    expect(error.properties.code).toMatchObject({ type: 'string' });
    expect(error.required).not.toContain('code');
  });
});

// The generators reach every route, stay on paths (never another host), and survive awkward text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FuzzIdentities } from '../accounts.js';
import { percentEncode } from './primitives.js';
import { fuzzRequest, routeSpecs, type FuzzWorld } from './requests.js';

const account = (name: string) => ({ email: `${name}@example.com`, accountId: name, key: `pk_${name}_secret`, keys: [`pk_${name}_secret`] });
const identities: FuzzIdentities = {
  rich: account('rich'), poor: account('poor'), revokedKey: 'pk_revoked', session: 'vr_session_abc', accounts: [],
  limitedKey: 'pk_limited', limitedKeyId: '11111111-1111-4111-8111-111111111111',
};
const world: FuzzWorld = {
  identities,
  speechTargets: [{ model: 'openai/tts-1', voices: ['alloy'], maxInput: 4096, weight: 1 }, { model: 'local/espeak-ng', voices: ['en-us'], maxInput: 200, weight: 1 }],
};

describe('the request generators', () => {
  const samples = fc.sample(fuzzRequest(world), { numRuns: 3_000, seed: 42 });

  it('cover every route and odd methods', () => {
    const routes = new Set(samples.map((sample) => sample.route));
    for (const spec of routeSpecs(world)) expect(routes).toContain(spec.route);
    expect(routes).toContain('odd method');
  });

  it('send only origin-form targets (a path on this host), with header values node:http accepts', () => {
    for (const sample of samples) {
      expect(sample.target.startsWith('/'), sample.target).toBe(true);
      for (const value of Object.values(sample.headers)) expect(value).toMatch(/^[\t\u0020-\u007e\u0080-\u00ff]*$/);
    }
  });

  it('never log out the session the run relies on', () => {
    for (const sample of samples.filter((candidate) => candidate.route === 'POST /v1/auth/logout' || candidate.route === 'POST /v1/auth/logout-all')) {
      expect(sample.headers.authorization ?? '').not.toContain(identities.session);
    }
  });

  it('leave early in some inputs, never on the speech path (what a left speech request costs depends on its audio)', () => {
    const leaving = samples.filter((sample) => sample.leaveAfterMs !== undefined);
    expect(leaving.length).toBeGreaterThan(samples.length / 20);
    expect(new Set(leaving.map((sample) => sample.route)).size).toBeGreaterThan(5);
    for (const sample of leaving) expect(sample.target, sample.route).not.toMatch(/audio\/speech/i);
    expect(samples.some((sample) => /audio\/speech/i.test(sample.target))).toBe(true);
  });

  it('send Expect: 100-continue with some bodies, never without a body', () => {
    const expecting = samples.filter((sample) => sample.headers.expect !== undefined);
    expect(expecting.length).toBeGreaterThan(samples.length / 40);
    for (const sample of expecting) expect(sample.body, sample.route).toBeDefined();
    expect(new Set(expecting.map((sample) => sample.route))).toContain('POST /v1/keys');
  });

  it('percent-encode lone surrogates instead of throwing', () => {
    expect(percentEncode('a\ud800/é')).toBe('a%EF%BF%BD%2F%C3%A9');
  });
});

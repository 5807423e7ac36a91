import { describe, expect, it } from 'vitest';
import { ConfigurationError, parseEnvironment } from '@voice-router/service-kit';
import { embeddedEnvironmentSchema } from './environment.js';

describe('the embedded configuration', () => {
  it('refuses a stream maximum at or above the reaper bound, naming both settings', () => {
    const parse = (environment: Record<string, string>) => () => parseEnvironment('voice-router', embeddedEnvironmentSchema, environment);
    expect(parse({ STREAM_MAX_DURATION_MS: '60000', RESERVATION_REAP_AFTER_MS: '60000' })).toThrow(ConfigurationError);
    expect(parse({ STREAM_MAX_DURATION_MS: '900000' })).toThrow(/STREAM_MAX_DURATION_MS.*RESERVATION_REAP_AFTER_MS/);
    expect(parse({ STREAM_MAX_DURATION_MS: '59999', RESERVATION_REAP_AFTER_MS: '60000' })()).toMatchObject({ SHUTDOWN_GRACE_MS: 30_000 });
  });

  it('parses TRUSTED_PROXIES once for both planes and refuses entries that are not addresses', () => {
    const parse = (environment: Record<string, string>) => parseEnvironment('voice-router', embeddedEnvironmentSchema, environment);
    expect(parse({}).TRUSTED_PROXIES.entries).toEqual([]);
    expect(parse({ TRUSTED_PROXIES: '10.0.0.1, 10.1.0.0/16' }).TRUSTED_PROXIES.has('10.1.2.3')).toBe(true);
    expect(() => parse({ TRUSTED_PROXIES: 'load-balancer.internal' })).toThrow(/TRUSTED_PROXIES.*not an IP address or CIDR range/);
  });
});

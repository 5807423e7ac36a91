import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isLoopbackAddress, normaliseAddress, parseTrustedProxies, trustedProxiesVariable } from './trusted-proxies.js';

describe('trusted proxies', () => {
  it('spells every address one way', () => {
    expect(normaliseAddress('0000:0000:0000:0000:0000:ffff:7f00:0003')).toBe('127.0.0.3');
    expect(normaliseAddress('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(normaliseAddress('0000:0000:0000:0000:0000:0000:0000:0001')).toBe('::1');
    expect(normaliseAddress('[2001:DB8:0:0:0:0:0:1]')).toBe('2001:db8::1');
    expect(normaliseAddress(' 192.0.2.1 ')).toBe('192.0.2.1');
    expect(normaliseAddress('unknown')).toBe('unknown');
    expect(isLoopbackAddress('0000:0000:0000:0000:0000:ffff:7f00:0002')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('10.0.0.1')).toBe(false);
  });

  it('matches addresses and CIDR ranges of both families, whatever their spelling', () => {
    const trusted = parseTrustedProxies('10.0.0.5, 192.168.0.0/16 fd00::/8,2001:db8::1');
    expect(trusted.entries).toEqual(['10.0.0.5', '192.168.0.0/16', 'fd00::/8', '2001:db8::1']);
    expect(trusted.has('10.0.0.5')).toBe(true);
    expect(trusted.has('::ffff:10.0.0.5')).toBe(true);
    expect(trusted.has('0000:0000:0000:0000:0000:ffff:c0a8:0101')).toBe(true);
    expect(trusted.has('10.0.0.6')).toBe(false);
    expect(trusted.has('fd12::3')).toBe(true);
    expect(trusted.has('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe(true);
    expect(trusted.has('2001:db8::2')).toBe(false);
    expect(trusted.has('not an address')).toBe(false);
  });

  it('trusts nobody by default and refuses malformed entries', () => {
    expect(parseTrustedProxies(undefined).has('127.0.0.1')).toBe(false);
    expect(parseTrustedProxies('').entries).toEqual([]);
    for (const bad of ['localhost', '10.0.0.0/33', '10.0.0.1/x', '::1/129', '10.0.0.0/8/1', '300.1.1.1']) {
      expect(() => parseTrustedProxies(bad), bad).toThrow(/is not an IP|invalid prefix/);
    }
    const schema = z.object({ TRUSTED_PROXIES: trustedProxiesVariable });
    expect(schema.safeParse({ TRUSTED_PROXIES: 'example.com' }).success).toBe(false);
    expect(schema.parse({}).TRUSTED_PROXIES.entries).toEqual([]);
  });
});

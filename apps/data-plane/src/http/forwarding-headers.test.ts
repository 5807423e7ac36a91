import { describe, expect, it } from 'vitest';
import { parseTrustedProxies } from '@voice-router/service-kit';
import { forwardingHeaders } from './forwarding-headers.js';

const claims = { forwardedFor: '203.0.113.9', forwardedProto: 'https', forwardedHost: 'voice.example.com', host: 'router.internal:8080' };

describe('forwarding headers', () => {
  it('ignore what an untrusted client claims and use the socket address', () => {
    const trusted = parseTrustedProxies('');
    expect(forwardingHeaders('127.0.0.2', claims, trusted)).toEqual({
      'x-forwarded-for': '127.0.0.2', 'x-forwarded-proto': 'http', 'x-forwarded-host': 'router.internal:8080',
    });
  });

  it('append the peer to the chain of a trusted proxy and keep its protocol and host', () => {
    const trusted = parseTrustedProxies('10.0.0.0/24');
    expect(forwardingHeaders('10.0.0.7', { ...claims, forwardedFor: '198.51.100.1, 203.0.113.9' }, trusted)).toEqual({
      'x-forwarded-for': '198.51.100.1, 203.0.113.9, 10.0.0.7', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'voice.example.com',
    });
    expect(forwardingHeaders('10.0.0.7', { forwardedFor: '', forwardedProto: '', forwardedHost: '', host: 'h' }, trusted)).toEqual({
      'x-forwarded-for': '10.0.0.7', 'x-forwarded-proto': 'http', 'x-forwarded-host': 'h',
    });
  });
});

// The forwarding headers the data plane sends to the control plane. The client's address comes from
// the socket; a client-sent X-Forwarded-For/-Proto/-Host is believed only when the socket peer is one
// of TRUSTED_PROXIES (a load balancer in front), and the peer is then appended to the chain.
import type { TrustedProxies } from '@voice-router/service-kit';

export interface ClientHeaders {
  forwardedFor: string;
  forwardedProto: string;
  forwardedHost: string;
  host: string;
}

export interface ForwardingHeaders {
  'x-forwarded-for': string;
  'x-forwarded-proto': string;
  'x-forwarded-host': string;
}

/** Headers a client may send that say who it is; dropped before forwarding and replaced by ours. */
export const FORWARDING_HEADER_NAMES = new Set(['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'forwarded', 'x-real-ip']);

export function forwardingHeaders(peer: string, client: ClientHeaders, trusted: TrustedProxies): ForwardingHeaders {
  const behindProxy = trusted.has(peer);
  const chain = behindProxy ? client.forwardedFor.trim() : '';
  return {
    'x-forwarded-for': chain ? `${chain}, ${peer}` : peer,
    // This listener speaks plain HTTP; only a trusted proxy in front can say the client used HTTPS.
    'x-forwarded-proto': (behindProxy && client.forwardedProto.trim()) || 'http',
    'x-forwarded-host': (behindProxy && client.forwardedHost.trim()) || client.host,
  };
}

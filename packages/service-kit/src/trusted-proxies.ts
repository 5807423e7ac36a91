// Which peers may tell us who the client is (X-Forwarded-For and friends): TRUSTED_PROXIES, a list of
// IP addresses and CIDR ranges. Everyone else's forwarding headers are ignored, so nobody picks the
// address that rate limits count them under.
import net from 'node:net';
import { z } from 'zod';

export interface TrustedProxies {
  /** The entries as configured (normalised), for logs and docs. */
  readonly entries: readonly string[];
  /** True when the address (any common spelling: IPv4, IPv6, IPv4-mapped IPv6) is in the list. */
  has(address: string): boolean;
}

const IPV4_MAPPED = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * One spelling per address: IPv4 dotted, IPv6 compressed lower case, IPv4-mapped IPv6 as IPv4
 * (uWebSockets.js reports `0000:…:ffff:7f00:0001`, Node `::ffff:127.0.0.1`). Non-addresses come back as given.
 */
export function normaliseAddress(address: string): string {
  const trimmed = address.trim().replace(/^\[(.*)\]$/, '$1');
  if (net.isIPv4(trimmed)) return trimmed;
  if (!net.isIPv6(trimmed)) return trimmed;
  // The WHATWG URL parser prints IPv6 in its canonical compressed form (and IPv4-mapped tails in hex).
  const canonical = new URL(`http://[${trimmed}]/`).hostname.slice(1, -1);
  const mapped = IPV4_MAPPED.exec(canonical);
  if (!mapped) return canonical;
  const high = Number.parseInt(mapped[1]!, 16);
  const low = Number.parseInt(mapped[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

export function isLoopbackAddress(address: string): boolean {
  const normalised = normaliseAddress(address);
  return normalised === '::1' || (net.isIPv4(normalised) && normalised.startsWith('127.'));
}

/** Parses `10.0.0.5, 10.1.0.0/16 fd00::/8` (commas or spaces); throws naming the first bad entry. */
export function parseTrustedProxies(text: string | undefined): TrustedProxies {
  const blockList = new net.BlockList();
  const entries: string[] = [];
  for (const entry of (text ?? '').split(/[\s,]+/).filter(Boolean)) {
    const [addressText, prefixText, extra] = entry.split('/');
    const address = normaliseAddress(addressText ?? '');
    const family = net.isIP(address);
    if (!family || extra !== undefined) throw new Error(`"${entry}" is not an IP address or CIDR range`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefixText === undefined) {
      blockList.addAddress(address, type);
      entries.push(address);
      continue;
    }
    const prefix = Number(prefixText);
    if (!/^\d{1,3}$/.test(prefixText) || prefix > (family === 4 ? 32 : 128)) throw new Error(`"${entry}" has an invalid prefix length`);
    blockList.addSubnet(address, prefix, type);
    entries.push(`${address}/${prefix}`);
  }
  return {
    entries,
    has(candidate) {
      const address = normaliseAddress(candidate);
      const family = net.isIP(address);
      return family !== 0 && entries.length > 0 && blockList.check(address, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** TRUSTED_PROXIES in an app's environment schema: empty or unset trusts nobody. */
export const trustedProxiesVariable = z
  .string()
  .optional()
  .transform((value, context) => {
    try {
      return parseTrustedProxies(value);
    } catch (error) {
      context.addIssue({ code: 'custom', message: `${(error as Error).message} (expected IPs or CIDR ranges, comma-separated)` });
      return z.NEVER;
    }
  });

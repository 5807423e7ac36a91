// Passwords are hashed with scrypt (memory-hard: N=2^15, r=8 → 32 MiB per hash), stored as
// `scrypt$N$r$p$salt$hash`. Verification is constant-time and runs off the event loop.
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, length: number, options: crypto.ScryptOptions) => Promise<Buffer>;
const PARAMETERS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LENGTH, { ...PARAMETERS, maxmem: MAX_MEMORY });
  return ['scrypt', PARAMETERS.N, PARAMETERS.r, PARAMETERS.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  // Users without a password still cost one hash, so response time does not reveal which emails exist.
  const parts = (stored ?? DUMMY_HASH).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, expected] = parts as [string, string, string, string, string, string];
  const expectedBytes = Buffer.from(expected, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expectedBytes.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: MAX_MEMORY });
  return stored !== null && crypto.timingSafeEqual(actual, expectedBytes);
}

const DUMMY_HASH = `scrypt$${PARAMETERS.N}$${PARAMETERS.r}$${PARAMETERS.p}$AAAAAAAAAAAAAAAAAAAAAA$${'A'.repeat(43)}`;

export function passwordProblem(password: string): string | undefined {
  if (password.length < 8) return 'Use at least 8 characters.';
  if (password.length > 200) return 'Use at most 200 characters.';
  return undefined;
}

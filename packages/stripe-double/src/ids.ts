// Object ids and secrets shaped like Stripe's: a prefix and random base62 characters.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomBase62(length: number): string {
  const bytes = randomBytes(length * 2);
  let output = '';
  for (let index = 0; output.length < length && index < bytes.length; index++) {
    // 248 = 62 × 4: dropping bytes above it keeps every character equally likely.
    if (bytes[index]! < 248) output += ALPHABET[bytes[index]! % 62];
  }
  return output.length === length ? output : output + randomBase62(length - output.length);
}

export function newId(prefix: string, length = 24): string {
  return `${prefix}_${randomBase62(length)}`;
}

export function clientSecretFor(id: string): string {
  return `${id}_secret_${randomBase62(25)}`;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

// The Stripe-Signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>" keyed by the
// endpoint's whsec_ secret>`, which the official library's constructEvent verifies.
import { createHmac } from 'node:crypto';

export function signPayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

// Libraries that only some configurations use are loaded on first use, not when the control plane is
// imported: ioredis (REDIS_URL) and Stripe (STRIPE_SECRET_KEY). The embedded mode's default process needs
// neither. ioredis is CommonJS, so this and a static `import` elsewhere give the same module. Stripe ships a
// CommonJS and an ES build whose classes differ: this app uses Stripe's values only through stripeLibrary()
// (the client) and loadedStripe() (its error classes), so a Stripe error is always matched against the
// build that made the client.
import { createRequire } from 'node:module';
import type StripeLibrary from 'stripe';

const require = createRequire(import.meta.url);
let stripe: typeof StripeLibrary | undefined;

export const loadIoredis = (): typeof import('ioredis') => require('ioredis') as typeof import('ioredis');

export function stripeLibrary(): typeof StripeLibrary {
  stripe ??= require('stripe') as typeof StripeLibrary;
  return stripe;
}

/** Stripe if billing has loaded it: before that no Stripe client exists, so no Stripe error can either. */
export const loadedStripe = (): typeof StripeLibrary | undefined => stripe;

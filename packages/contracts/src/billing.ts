// Card billing: saved cards and off-session top-ups (the payment processor is Stripe).
import { z } from 'zod';

export const TOP_UP_MIN_CENTS = 1_000;
export const TOP_UP_MAX_CENTS = 100_000;
export const SAVED_CARDS_LISTED = 5;

export const BillingMethodSchema = z
  .object({
    id: z.string().describe('The payment method id (`pm_…`), for `payment_method_id`.'),
    brand: z.string().describe('visa, mastercard, amex, …'),
    last4: z.string(),
    expMonth: z.int().min(1).max(12),
    expYear: z.int(),
  })
  .meta({ id: 'BillingMethod' });

export const BillingMethodsResponseSchema = z
  .object({ methods: z.array(BillingMethodSchema).max(SAVED_CARDS_LISTED) })
  .meta({ id: 'BillingMethods' });

export const TopUpRequestSchema = z
  .strictObject({
    amount_cents: z.int().min(TOP_UP_MIN_CENTS).max(TOP_UP_MAX_CENTS).describe('USD cents, 1000 ($10) to 100000 ($1,000).'),
    payment_method_id: z.string().max(255).regex(/^pm_[A-Za-z0-9_]+$/, 'a payment method id (pm_…)').describe('A saved card of the account (`GET /v1/billing/methods`).'),
    idempotency_key: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[\x21-\x7e]+$/, 'visible ASCII characters only')
      .describe('One per top-up attempt (a UUID, say); a retry with the same key never charges twice and answers as the first attempt did.'),
  })
  .meta({ id: 'TopUpRequest' });

export const TopUpResponseSchema = z
  .object({
    ok: z.literal(true),
    payment_intent_id: z.string().describe('Stripe\'s PaymentIntent (`pi_…`).'),
    amount_cents: z.int(),
  })
  .meta({ id: 'TopUpResponse', description: 'The card was charged. The wallet is credited when the payment processor\'s webhook confirms the payment, usually within seconds.' });

export const WebhookAckSchema = z
  .object({ received: z.literal(true), ignored: z.boolean().describe('True for event types the router does not act on.') })
  .meta({ id: 'WebhookAck' });

export type TopUpRequest = z.infer<typeof TopUpRequestSchema>;
export type BillingMethod = z.infer<typeof BillingMethodSchema>;

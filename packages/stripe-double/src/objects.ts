// Builders for the objects the double returns, typed with the official library's own types so the
// compiler holds every field to Stripe's shape (the API version the library pins).
import type Stripe from 'stripe';
import { clientSecretFor, newId, nowSeconds, randomBase62 } from './ids.js';
import type { TestCard } from './test-cards.js';

const emptyAddress: Stripe.Address = { city: null, country: null, line1: null, line2: null, postal_code: null, state: null };

export function buildCustomer(input: { name?: string; email?: string; description?: string; metadata: Stripe.Metadata }): Stripe.Customer {
  return {
    id: newId('cus', 14),
    object: 'customer',
    address: null,
    balance: 0,
    created: nowSeconds(),
    currency: null,
    default_source: null,
    delinquent: false,
    description: input.description ?? null,
    email: input.email ?? null,
    invoice_prefix: randomBase62(8).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: input.metadata,
    name: input.name ?? null,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

/** A fingerprint is the same for every PaymentMethod made from one card number, as Stripe's is. */
function fingerprintOf(card: TestCard): string {
  return Buffer.from(card.number).toString('base64').replace(/[^A-Za-z0-9]/g, '').slice(0, 16);
}

export function buildPaymentMethod(card: TestCard, metadata: Stripe.Metadata = {}): Stripe.PaymentMethod {
  const expiry = new Date();
  return {
    id: newId('pm'),
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: { address: { ...emptyAddress }, email: null, name: null, phone: null, tax_id: null },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      display_brand: card.brand === 'amex' ? 'american_express' : card.brand,
      exp_month: 12,
      exp_year: expiry.getUTCFullYear() + 3,
      fingerprint: fingerprintOf(card),
      funding: card.funding,
      generated_from: null,
      last4: card.number.slice(-4),
      networks: { available: [card.brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: nowSeconds(),
    customer: null,
    customer_account: null,
    livemode: false,
    metadata,
    type: 'card',
  };
}

export function buildPaymentIntent(input: {
  amount: number;
  currency: string;
  customer: string | null;
  description: string | null;
  metadata: Stripe.Metadata;
  paymentMethod: string | null;
  setupFutureUsage: 'off_session' | 'on_session' | null;
  /** API 2026-09-30.endive replaced the `payment_method_types` parameter with this one. */
  allowedPaymentMethodTypes: string[] | null;
}): Stripe.PaymentIntent {
  const id = newId('pi');
  return {
    id,
    object: 'payment_intent',
    allowed_payment_method_types: input.allowedPaymentMethodTypes,
    amount: input.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    client_secret: clientSecretFor(id),
    confirmation_method: 'automatic',
    created: nowSeconds(),
    currency: input.currency,
    customer: input.customer,
    customer_account: null,
    description: input.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: input.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: input.paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' } },
    payment_method_types: input.allowedPaymentMethodTypes ?? ['card'],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: input.setupFutureUsage,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: input.paymentMethod ? 'requires_confirmation' : 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
  };
}

export function buildSetupIntent(input: { customer: string | null; metadata: Stripe.Metadata; usage: 'off_session' | 'on_session' }): Stripe.SetupIntent {
  const id = newId('seti');
  return {
    id,
    object: 'setup_intent',
    allowed_payment_method_types: null,
    application: null,
    automatic_payment_methods: null,
    cancellation_reason: null,
    client_secret: clientSecretFor(id),
    created: nowSeconds(),
    customer: input.customer,
    description: null,
    excluded_payment_method_types: null,
    flow_directions: null,
    last_setup_error: null,
    latest_attempt: null,
    livemode: false,
    mandate: null,
    metadata: input.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: { card: { mandate_options: null, network: null, request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    single_use_mandate: null,
    status: 'requires_payment_method',
    usage: input.usage,
  };
}

export function buildRefund(input: { amount: number; currency: string; charge: string | null; paymentIntent: string; customer: string | null; paymentMethod: string | null }): Stripe.Refund {
  return {
    id: newId('re'),
    object: 'refund',
    amount: input.amount,
    balance_transaction: newId('txn'),
    charge: input.charge,
    created: nowSeconds(),
    currency: input.currency,
    customer: input.customer,
    customer_account: null,
    destination_details: { card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' }, type: 'card' },
    metadata: {},
    payment_intent: input.paymentIntent,
    payment_method: input.paymentMethod,
    reason: 'requested_by_customer',
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
}

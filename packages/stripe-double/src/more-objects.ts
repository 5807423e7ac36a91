// Builders for the Checkout Session (setup mode) and the Dispute, the two objects with the most
// fields; typed with the official library's types like the others.
import type Stripe from 'stripe';
import { newId, nowSeconds } from './ids.js';

export function buildSetupCheckoutSession(input: {
  baseUrl: string;
  customer: string | null;
  setupIntent: string;
  successUrl: string;
  cancelUrl: string | null;
  currency: string | null;
  allowedPaymentMethodTypes: string[] | null;
  metadata: Stripe.Metadata;
  clientReferenceId: string | null;
}): Stripe.Checkout.Session {
  const id = newId('cs_test', 58);
  const created = nowSeconds();
  return {
    id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: input.allowedPaymentMethodTypes,
    amount_subtotal: null,
    amount_total: null,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: input.cancelUrl,
    client_reference_id: input.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created,
    currency: input.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: input.customer,
    customer_account: null,
    customer_creation: null,
    customer_details: null,
    customer_email: null,
    discounts: null,
    expires_at: created + 24 * 3600,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: input.metadata,
    mode: 'setup',
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'always',
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: input.allowedPaymentMethodTypes ?? ['card'],
    payment_status: 'no_payment_required',
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: input.setupIntent,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: input.successUrl,
    total_details: null,
    ui_mode: 'hosted',
    url: `${input.baseUrl}/c/pay/${id}`,
    wallet_options: null,
  };
}

const noEvidence: Stripe.Dispute.Evidence = {
  access_activity_log: null, billing_address: null, cancellation_policy: null, cancellation_policy_disclosure: null,
  cancellation_rebuttal: null, customer_communication: null, customer_email_address: null, customer_name: null,
  customer_purchase_ip: null, customer_signature: null, duplicate_charge_documentation: null, duplicate_charge_explanation: null,
  duplicate_charge_id: null, enhanced_evidence: {}, product_description: null, receipt: null, refund_policy: null,
  refund_policy_disclosure: null, refund_refusal_explanation: null, service_date: null, service_documentation: null,
  shipping_address: null, shipping_carrier: null, shipping_date: null, shipping_documentation: null,
  shipping_tracking_number: null, uncategorized_file: null, uncategorized_text: null,
};

export function buildDispute(input: { amount: number; currency: string; charge: string; paymentIntent: string; brand: string }): Stripe.Dispute {
  const created = nowSeconds();
  return {
    id: newId('dp'),
    object: 'dispute',
    amount: input.amount,
    balance_transactions: [],
    charge: input.charge,
    created,
    currency: input.currency,
    enhanced_eligibility_types: [],
    evidence: noEvidence,
    evidence_details: {
      due_by: created + 7 * 24 * 3600, enhanced_eligibility: {}, has_evidence: false, past_due: false, submission_count: 0,
      submission_method: 'not_submitted',
    },
    intended_submission_method: null,
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: input.paymentIntent,
    payment_method_details: { card: { brand: input.brand, case_type: 'chargeback', network: input.brand, network_reason_code: '10.4' }, type: 'card' },
    reason: 'fraudulent',
    status: 'needs_response',
  };
}

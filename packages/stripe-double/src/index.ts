// @voice-router/stripe-double: a faithful local stand-in for the parts of Stripe's API the router
// uses (customers, saved cards, off-session PaymentIntents, Checkout in setup mode, 3-D Secure
// redirects, signed webhooks), for tests and benchmarks. Point the official `stripe` library at it.
export { startStripeDouble, DOUBLE_API_VERSION, type StripeDouble, type StripeDoubleOptions } from './start-stripe-double.js';
export { TEST_CARDS, cardByNumber, cardByToken, type TestCard, type CardBehaviour } from './test-cards.js';
export { signPayload } from './webhooks/signature.js';
export type { WebhookEndpoint, Delivery, ReleaseOrder } from './webhooks/dispatcher.js';
export type { DoubleEvent } from './state.js';
export type { RecordedApiRequest } from './server.js';
export { parseFormBody } from './form-body.js';
export { enterCardInCheckout, answerThreeDSecure } from './hosted/hosted-page-driver.js';

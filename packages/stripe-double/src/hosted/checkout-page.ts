// Checkout's hosted page in setup mode: the customer enters a card number; the card is set up for
// off-session use (through a 3-D Secure challenge when the card asks for one) and attached to the
// session's customer; then the browser goes to success_url, `{CHECKOUT_SESSION_ID}` filled in.
import type Stripe from 'stripe';
import { buildPaymentMethod } from '../objects.js';
import { confirmSetupIntent } from '../payments.js';
import type { DoubleState } from '../state.js';
import { cardByNumber, TEST_CARDS } from '../test-cards.js';
import { escapeHtml, redirectTo, showPage, type HostedResult } from './html.js';

const ERRORS: Record<string, string> = {
  authentication_failed: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
};

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

function form(session: Stripe.Checkout.Session, error?: string, number = ''): HostedResult {
  const cards = TEST_CARDS.map((card) => `<tr><td><code>${card.number}</code></td><td>${escapeHtml(card.description)}</td></tr>`).join('');
  return showPage('Save a card', `
<h1>Save a card</h1>
<p>This card will be saved for future payments.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/c/pay/${escapeHtml(session.id)}">
  <label for="card-number">Card number</label>
  <input id="card-number" name="card_number" inputmode="numeric" autocomplete="cc-number" value="${escapeHtml(number)}">
  <label for="card-expiry">Expiration (MM / YY)</label>
  <input id="card-expiry" name="expiry" autocomplete="cc-exp" value="12 / 34">
  <label for="card-cvc">CVC</label>
  <input id="card-cvc" name="cvc" autocomplete="cc-csc" value="123">
  <button type="submit" name="action" value="save">Save card</button>
</form>
${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Cancel</a></p>` : ''}
<h2>Test cards</h2><table>${cards}</table>`, error ? 402 : 200);
}

export function successUrlOf(session: Stripe.Checkout.Session): string {
  return (session.success_url ?? '').replace('{CHECKOUT_SESSION_ID}', session.id);
}

export function completeSession(state: DoubleState, session: Stripe.Checkout.Session): void {
  session.status = 'complete';
  state.emit('checkout.session.completed', session);
}

export function checkoutPage(state: DoubleState, sessionId: string, method: string, form_: URLSearchParams, query: URLSearchParams): HostedResult {
  const session = state.checkoutSessions.get(sessionId);
  if (!session) return showPage('Not found', '<h1>Something went wrong</h1><p>The page you were looking for could not be found.</p>', 404);
  if (session.status !== 'open') return showPage('Session ended', '<h1>This Checkout Session is no longer active</h1>', 410);
  if (method === 'GET') return form(session, ERRORS[query.get('error') ?? '']);

  const number = (form_.get('card_number') ?? '').replace(/[\s-]/g, '');
  const card = cardByNumber(number);
  if (!card) {
    const message = /^\d+$/.test(number) && luhnValid(number)
      ? 'Your card was declined. Your request was in test mode, but used a non test card.'
      : 'Your card number is incorrect.';
    return form(session, message, number);
  }
  const setupIntent = state.setupIntents.get(String(session.setup_intent));
  if (!setupIntent) throw new Error(`session ${session.id} has no SetupIntent`);
  const record = { object: buildPaymentMethod(card), card, setUpForOffSession: false };
  state.paymentMethods.set(record.object.id, record);
  const outcome = confirmSetupIntent(state, setupIntent, record, `${state.baseUrl()}/c/pay/${session.id}`, session.id);
  if (outcome.outcome === 'declined') return form(session, outcome.message, number);
  if (outcome.outcome === 'requires_action') return redirectTo(outcome.url);
  completeSession(state, session);
  return redirectTo(successUrlOf(session));
}

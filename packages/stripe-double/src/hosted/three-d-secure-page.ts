// The 3-D Secure challenge page that next_action.redirect_to_url points at: "Complete" or "Fail",
// then back to the return URL with Stripe's query parameters (or back into Checkout).
import type { DoubleState } from '../state.js';
import { finishPaymentChallenge, finishSetupChallenge } from '../payments.js';
import { completeSession, successUrlOf } from './checkout-page.js';
import { escapeHtml, redirectTo, showPage, withQuery, type HostedResult } from './html.js';

export function threeDSecurePage(state: DoubleState, method: string, form: URLSearchParams, query: URLSearchParams): HostedResult {
  const token = (method === 'POST' ? form.get('challenge') : query.get('challenge')) ?? '';
  const challenge = state.challenges.get(token);
  if (!challenge) return showPage('Authentication', '<h1>This authentication has ended</h1><p>Nothing more to do here.</p>', 410);
  const paymentIntent = state.paymentIntents.get(challenge.intentId);
  const setupIntent = state.setupIntents.get(challenge.intentId);

  if (method === 'GET') {
    const amount = paymentIntent ? `$${(paymentIntent.amount / 100).toFixed(2)} ${paymentIntent.currency.toUpperCase()}` : 'saving your card';
    return showPage('3D Secure 2 Test Page', `
<h1>3D Secure 2 Test Page</h1>
<p>Your bank asks you to confirm: ${escapeHtml(amount)}.</p>
<form method="post" action="/3d_secure_2/hosted">
  <input type="hidden" name="challenge" value="${escapeHtml(token)}">
  <button type="submit" name="action" value="complete">Complete authentication</button>
  <button type="submit" name="action" value="fail">Fail authentication</button>
</form>`);
  }

  state.challenges.delete(token);
  const passed = form.get('action') === 'complete';
  if (paymentIntent) {
    finishPaymentChallenge(state, paymentIntent, passed);
    return redirectTo(withQuery(challenge.returnUrl, {
      payment_intent: paymentIntent.id,
      payment_intent_client_secret: paymentIntent.client_secret ?? '',
      redirect_status: paymentIntent.status === 'succeeded' ? 'succeeded' : 'failed',
    }));
  }
  if (setupIntent) {
    finishSetupChallenge(state, setupIntent, passed);
    const session = challenge.checkoutSessionId ? state.checkoutSessions.get(challenge.checkoutSessionId) : undefined;
    if (session) {
      if (setupIntent.status !== 'succeeded') return redirectTo(`${state.baseUrl()}/c/pay/${session.id}?error=authentication_failed`);
      completeSession(state, session);
      return redirectTo(successUrlOf(session));
    }
    return redirectTo(withQuery(challenge.returnUrl, {
      setup_intent: setupIntent.id,
      setup_intent_client_secret: setupIntent.client_secret ?? '',
      redirect_status: setupIntent.status === 'succeeded' ? 'succeeded' : 'failed',
    }));
  }
  return showPage('Authentication', '<h1>This authentication has ended</h1>', 410);
}

// Stripe's documented test cards (docs.stripe.com/testing), by number and by their `pm_card_*`
// PaymentMethod token, with the behaviour each one documents. Only what the router's flows touch.

export type CardBehaviour =
  /** Every payment succeeds, on- or off-session, without authentication. */
  | { kind: 'succeeds' }
  /** The card is refused as soon as it is attached or set up (the `chargeDeclined*` cards). */
  | { kind: 'declines_on_attach'; declineCode: string }
  /** Attaching succeeds; every charge then fails (`chargeCustomerFail`, 4000 0000 0000 0341). */
  | { kind: 'declines_charges'; declineCode: string }
  /**
   * 4000 0025 0000 3155: off-session payments need authentication until the card has been set up
   * for future use (a SetupIntent with usage off_session, or an authenticated payment with
   * setup_future_usage off_session); after that they succeed. On-session payments always authenticate.
   */
  | { kind: 'authentication_unless_set_up' }
  /** 4000 0027 6000 3184: every payment needs authentication, however the card was set up. */
  | { kind: 'authentication_always' };

export interface TestCard {
  number: string;
  token: string;
  brand: 'visa' | 'mastercard' | 'amex';
  funding: 'credit' | 'debit';
  description: string;
  behaviour: CardBehaviour;
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4242424242424242', token: 'pm_card_visa', brand: 'visa', funding: 'credit', description: 'Succeeds', behaviour: { kind: 'succeeds' } },
  { number: '5555555555554444', token: 'pm_card_mastercard', brand: 'mastercard', funding: 'credit', description: 'Succeeds', behaviour: { kind: 'succeeds' } },
  { number: '378282246310005', token: 'pm_card_amex', brand: 'amex', funding: 'credit', description: 'Succeeds', behaviour: { kind: 'succeeds' } },
  {
    number: '4000000000000002', token: 'pm_card_visa_chargeDeclined', brand: 'visa', funding: 'credit',
    description: 'Declined (generic_decline)', behaviour: { kind: 'declines_on_attach', declineCode: 'generic_decline' },
  },
  {
    number: '4000000000009995', token: 'pm_card_visa_chargeDeclinedInsufficientFunds', brand: 'visa', funding: 'credit',
    description: 'Declined (insufficient_funds)', behaviour: { kind: 'declines_on_attach', declineCode: 'insufficient_funds' },
  },
  {
    number: '4000000000009987', token: 'pm_card_visa_chargeDeclinedLostCard', brand: 'visa', funding: 'credit',
    description: 'Declined (lost_card)', behaviour: { kind: 'declines_on_attach', declineCode: 'lost_card' },
  },
  {
    number: '4000000000000341', token: 'pm_card_chargeCustomerFail', brand: 'visa', funding: 'credit',
    description: 'Attaches, then every charge is declined', behaviour: { kind: 'declines_charges', declineCode: 'generic_decline' },
  },
  {
    number: '4000002500003155', token: 'pm_card_authenticationRequiredOnSetup', brand: 'visa', funding: 'credit',
    description: 'Authentication unless set up for off-session use', behaviour: { kind: 'authentication_unless_set_up' },
  },
  {
    number: '4000002760003184', token: 'pm_card_authenticationRequired', brand: 'visa', funding: 'credit',
    description: 'Authentication on every payment', behaviour: { kind: 'authentication_always' },
  },
];

export function cardByNumber(number: string): TestCard | undefined {
  const digits = number.replace(/[\s-]/g, '');
  return TEST_CARDS.find((card) => card.number === digits);
}

export function cardByToken(token: string): TestCard | undefined {
  return TEST_CARDS.find((card) => card.token === token);
}

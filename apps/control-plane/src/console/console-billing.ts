// The console's card billing on top of the billing service: every call checks that the user is a
// member of the account (for a 3-D Secure link, of the account the payment belongs to).
import type { ConsoleBilling, ConsoleTopUp, Failure } from '@voice-router/console';
import { isMember, listTopUps, listUserAccounts, type Database, type TopUpRecord } from '@voice-router/ledger';
import { PaymentProcessorError } from '../billing/billing-errors.js';
import type { Billing } from '../billing/billing.js';

const TOP_UPS_SHOWN = 20;
const forbidden = { ok: false as const, reason: 'forbidden' as const, message: 'You are not a member of that account.' };
const unavailable = { ok: false as const, reason: 'unavailable' as const, message: 'The payment processor did not answer. Nothing was charged twice; try again in a moment.' };

/** Runs a call; a processor failure becomes the 'unavailable' Failure (the caller logs nothing sensitive). */
async function guarded<T>(work: () => Promise<T>, onFailure: (error: PaymentProcessorError) => void): Promise<T | Failure<'unavailable'>> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof PaymentProcessorError)) throw error;
    onFailure(error);
    return unavailable;
  }
}

function consoleTopUp(record: TopUpRecord): ConsoleTopUp {
  const status: ConsoleTopUp['status'] = record.credited ? 'completed'
    : record.status === 'succeeded' || record.status === 'processing' ? 'pending'
      : record.status === 'canceled' ? 'canceled'
        : record.failureCode === 'authentication_required' || record.status === 'requires_action' ? 'needs_authentication'
          : 'failed';
  return { paymentIntentId: record.paymentIntentId, amountCents: record.amountCents, status, failureCode: record.failureCode, createdAt: record.createdAt.toISOString() };
}

export function createConsoleBilling(database: Database, billing: Billing, report: (error: PaymentProcessorError) => void): ConsoleBilling {
  const sql = database.sql;
  const notFound = { ok: false as const, reason: 'not_found' as const, message: 'There is no such payment in your accounts.' };

  async function memberPayment(userId: string, paymentIntentId: string) {
    const payment = await billing.authentication.pendingPayment(paymentIntentId);
    if (!payment || !(await isMember(sql, userId, payment.accountId))) return undefined;
    return payment;
  }

  return {
    hostedOrigins: billing.hostedOrigins,

    async overview({ userId, accountId }) {
      if (!(await isMember(sql, userId, accountId))) return forbidden;
      return guarded(async () => ({
        methods: await billing.service.listMethods(accountId),
        topUps: (await listTopUps(sql, accountId, TOP_UPS_SHOWN)).map(consoleTopUp),
      }), report);
    },

    async startCardSetup({ userId, accountId, returnUrl, cancelUrl }) {
      if (!(await isMember(sql, userId, accountId))) return forbidden;
      const account = (await listUserAccounts(sql, userId)).find((candidate) => candidate.accountId === accountId)!;
      return guarded(async () => ({
        ok: true as const,
        url: await billing.service.startCardSetup({ accountId, accountName: account.name, successUrl: `${returnUrl}?session_id={CHECKOUT_SESSION_ID}`, cancelUrl }),
      }), report);
    },

    async cardSetupResult({ userId, accountId, sessionId }) {
      if (!(await isMember(sql, userId, accountId))) return forbidden;
      return guarded(async () => {
        const status = await billing.service.cardSetupResult(accountId, sessionId);
        if (status === 'not_found') return { ok: false as const, reason: 'not_found' as const, message: 'That card setup does not belong to this account.' };
        return { ok: true as const, status };
      }, report);
    },

    async topUp({ userId, accountId, amountCents, paymentMethodId, idempotencyKey }) {
      if (!(await isMember(sql, userId, accountId))) return forbidden;
      return guarded(async () => {
        const outcome = await billing.service.topUp({ accountId, amountCents, paymentMethodId, idempotencyKey });
        switch (outcome.kind) {
          case 'charged':
            return { ok: true as const, paymentIntentId: outcome.paymentIntentId };
          case 'authentication_required':
            return { ok: false as const, reason: 'authentication_required' as const, paymentIntentId: outcome.paymentIntentId, message: 'Your bank wants you to confirm this payment.' };
          case 'declined':
            return { ok: false as const, reason: 'declined' as const, message: `The card was declined (${outcome.declineCode}). Nothing was charged.` };
          case 'in_progress':
            return { ok: false as const, reason: 'in_progress' as const, message: 'This top-up is still being processed. Reload the page in a moment.' };
          case 'invalid_payment_method':
          case 'idempotency_key_reused':
            return { ok: false as const, reason: 'invalid' as const, message: 'Choose one of your saved cards and submit the form again.' };
        }
      }, report);
    },

    async pendingPayment({ userId, paymentIntentId }) {
      return guarded(async () => {
        const payment = await memberPayment(userId, paymentIntentId);
        if (!payment) return notFound;
        const { paymentMethodId: _method, ...visible } = payment;
        return { ok: true as const, payment: visible };
      }, report);
    },

    async startAuthentication({ userId, paymentIntentId, returnUrl }) {
      return guarded(async () => {
        if (!(await memberPayment(userId, paymentIntentId))) return notFound;
        const start = await billing.authentication.start(paymentIntentId, returnUrl);
        if (start.next === 'redirect') return { ok: true as const, redirectUrl: start.url };
        if (start.next === 'done') return { ok: true as const, status: start.status };
        if (start.next === 'declined') return { ok: false as const, reason: 'declined' as const, message: `The card was declined (${start.declineCode}). Nothing was charged.` };
        return { ok: false as const, reason: 'not_found' as const, message: 'This payment can no longer be confirmed. Start a new top-up.' };
      }, report);
    },

    async finishAuthentication({ userId, paymentIntentId }) {
      return guarded(async () => {
        if (!(await memberPayment(userId, paymentIntentId))) return notFound;
        const result = await billing.authentication.finish(paymentIntentId);
        if (!result) return notFound;
        if (result.status === 'failed') {
          return { ok: false as const, reason: 'failed' as const, message: `Your bank did not confirm the payment (${result.reason}). Nothing was charged.` };
        }
        return { ok: true as const, status: result.status };
      }, report);
    },
  };
}

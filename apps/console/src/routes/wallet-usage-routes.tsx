// Read-only pages of the selected account: its wallet with the ledger, and its usage.
import express from 'express';
import { queryString } from '../http/form.js';
import { requireSignedIn, signedIn } from '../http/request-context.js';
import { sendPage } from '../http/render.js';
import { UsagePage, usagePeriods } from '../pages/usage-page.js';
import { WalletPage } from '../pages/wallet-page.js';
import { isFailure, statusFor, viewerOf, type RouteDependencies } from './route-support.js';

const activityLimit = 100;
const recentLimit = 20;

export function parseDays(text: string): number {
  const days = Number(text);
  return (usagePeriods as readonly number[]).includes(days) ? days : 30;
}

export function walletUsageRoutes({ services }: RouteDependencies): express.Router {
  const router = express.Router();
  router.use(['/wallet', '/usage'], requireSignedIn(services));

  router.get('/wallet', async (_request, response) => {
    const { session, account } = signedIn(response);
    const viewer = viewerOf(response);
    const wallet = await services.wallet({ userId: session.userId, accountId: account.accountId });
    if (isFailure(wallet)) {
      return sendPage(response, <WalletPage viewer={viewer} balanceMicros={0} reservedMicros={0} activity={[]} error={wallet.message} />, statusFor(wallet));
    }
    sendPage(response, (
      <WalletPage viewer={viewer} balanceMicros={wallet.balanceMicros} reservedMicros={wallet.reservedMicros}
        activity={wallet.activity.slice(0, activityLimit)} />
    ));
  });

  router.get('/usage', async (request, response) => {
    const { session, account } = signedIn(response);
    const days = parseDays(queryString(request, 'days', 4));
    const viewer = viewerOf(response);
    const usage = await services.usage({ userId: session.userId, accountId: account.accountId, days, limit: recentLimit });
    if (isFailure(usage)) return sendPage(response, <UsagePage viewer={viewer} days={days} error={usage.message} now={new Date()} />, statusFor(usage));
    sendPage(response, <UsagePage viewer={viewer} days={days} usage={usage} now={new Date()} />);
  });

  return router;
}

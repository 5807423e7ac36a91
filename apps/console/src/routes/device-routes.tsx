// Device approval. The code may arrive prefilled from the CLI's complete verification URI; a
// logged-out visitor logs in first and comes back to the same URL, code included.
import express from 'express';
import { field, queryString } from '../http/form.js';
import { clientIp, requireSignedIn, signedIn } from '../http/request-context.js';
import { sendPage } from '../http/render.js';
import { DeviceCodePage, DeviceConfirmPage, DeviceResultPage } from '../pages/device-pages.js';
import { statusFor, viewerOf, type RouteDependencies } from './route-support.js';

function cleanCode(text: string): string {
  return text.trim().slice(0, 64);
}

export function deviceRoutes({ services }: RouteDependencies): express.Router {
  const router = express.Router();
  router.use('/device', requireSignedIn(services, '/console/device'));

  router.get('/device', (request, response) => {
    sendPage(response, <DeviceCodePage viewer={viewerOf(response)} userCode={cleanCode(queryString(request, 'user_code', 200))} />);
  });

  router.post('/device', async (request, response) => {
    const userCode = cleanCode(field(request, 'user_code', 200));
    const viewer = viewerOf(response);
    if (!userCode) return sendPage(response, <DeviceCodePage viewer={viewer} userCode="" error="Enter the code shown in your terminal." />, 400);
    const result = await services.lookUpDeviceCode({ userCode, userId: signedIn(response).session.userId, ip: clientIp(request) });
    if (!result.ok) return sendPage(response, <DeviceCodePage viewer={viewer} userCode={userCode} error={result.message} />, statusFor(result));
    sendPage(response, <DeviceConfirmPage viewer={viewer} userCode={result.userCode} expiresAt={result.expiresAt} />);
  });

  router.post('/device/decide', async (request, response) => {
    const userCode = cleanCode(field(request, 'user_code', 200));
    const decisionText = field(request, 'decision', 20);
    const viewer = viewerOf(response);
    if (decisionText !== 'approve' && decisionText !== 'deny') {
      return sendPage(response, <DeviceCodePage viewer={viewer} userCode={userCode} error="Choose Approve or Deny." />, 400);
    }
    const result = await services.decideDeviceCode({ userCode, userId: signedIn(response).session.userId, decision: decisionText });
    if (!result.ok) return sendPage(response, <DeviceCodePage viewer={viewer} userCode={userCode} error={result.message} />, statusFor(result));
    sendPage(response, <DeviceResultPage viewer={viewer} approved={decisionText === 'approve'} />);
  });

  return router;
}

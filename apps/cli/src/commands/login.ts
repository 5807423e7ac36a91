// `vr login`: the OAuth device flow (RFC 8628). Shows a code and a link, opens the browser when it
// can, polls at the server's interval until the user approves, then stores the session token 0600.
import type { Command } from '../command.js';
import { ApiError, apiErrorFrom, CliError } from '../cli-errors.js';
import { expectData, type CommandContext } from '../context.js';
import { openBrowser } from '../open-browser.js';
import { startProgress } from '../progress.js';

/** Consecutive network failures tolerated while polling (a laptop changing networks, a server restart). */
const MAX_NETWORK_FAILURES = 5;
/** RFC 8628 §3.5: on slow_down the client adds five seconds to its interval for good. */
const SLOW_DOWN_STEP_SECONDS = 5;

interface SessionGrant {
  session_token: string;
  expires_at: string;
  user_id: string;
}

async function requestDeviceCode(context: CommandContext) {
  const { client, tokenKind } = context.api('none');
  try {
    return await expectData(client.POST('/v1/auth/device-code'), tokenKind);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw new CliError(`This server (${context.settings.baseUrl}) does not offer login: ask its operator for an API key and pass it with --api-key or VR_API_KEY.`);
    }
    throw error;
  }
}

async function pollForSession(context: CommandContext, deviceCode: string, intervalSeconds: number, expiresInSeconds: number): Promise<SessionGrant> {
  const { client } = context.api('none');
  const deadline = Date.now() + expiresInSeconds * 1000;
  const progress = startProgress(context.io.stderr, 'Waiting for approval in the browser', deadline);
  let interval = intervalSeconds;
  let networkFailures = 0;
  try {
    for (;;) {
      await context.sleep(interval * 1000);
      if (Date.now() > deadline) throw new CliError('The login code expired before it was approved: run `vr login` again.');
      let result;
      try {
        result = await client.POST('/v1/auth/poll', { body: { device_code: deviceCode } });
        networkFailures = 0;
      } catch (error) {
        if (++networkFailures >= MAX_NETWORK_FAILURES) throw error;
        progress.tick();
        continue;
      }
      if (result.response.ok && result.data) return result.data;
      const failure = apiErrorFrom(result.response, result.error, 'none');
      if (failure.code === 'slow_down' || failure.code === 'rate_limited') interval += SLOW_DOWN_STEP_SECONDS;
      else if (failure.code !== 'authorization_pending') throw failure;
      progress.tick();
    }
  } finally {
    progress.stop();
  }
}

/** The server should send absolute URLs; a relative one is resolved against the base URL. */
function absolute(url: string, baseUrl: string): string {
  return new URL(url, `${baseUrl}/`).toString();
}

export const loginCommand: Command = {
  name: 'login',
  summary: 'Log in through the browser (device code)',
  synopsis: 'login [--no-browser]',
  help: [
    '--no-browser           print the link without trying to open a browser',
    '--org ID|personal      also remember this organization for later commands',
  ],
  options: { 'no-browser': { type: 'boolean' } },
  async run(context, { values }) {
    const grant = await requestDeviceCode(context);
    const verificationUri = absolute(grant.verification_uri, context.settings.baseUrl);
    const completeUri = absolute(grant.verification_uri_complete, context.settings.baseUrl);
    context.print([
      `To log in, open ${verificationUri} and enter the code:`,
      '',
      `    ${grant.user_code}`,
      '',
      'Or open this link, which has the code filled in:',
      `    ${completeUri}`,
      '',
    ].join('\n'));
    if (!values['no-browser']) {
      const launch = context.io.openBrowser ?? ((url: string) => openBrowser(url, context.io.env));
      const opened = await launch(completeUri).catch(() => false);
      context.note(opened ? 'Opened your browser.' : 'Could not open a browser here: open the link yourself.');
    }
    const session = await pollForSession(context, grant.device_code, grant.interval, grant.expires_in);
    context.settings.sessionToken = session.session_token;
    context.saveConfig({
      sessionToken: session.session_token,
      sessionExpiresAt: session.expires_at,
      userId: session.user_id,
      // The token is only good on the server that issued it, so later commands go there by default.
      baseUrl: context.settings.baseUrl,
      ...(context.settings.organizationFromFlag ? { organization: context.settings.organizationFromFlag } : {}),
    });
    let who = session.user_id;
    try {
      const { client, tokenKind } = context.api('session');
      const me = await expectData(client.GET('/v1/auth/whoami'), tokenKind);
      who = me.email ? `${me.email} (user ${me.user_id})` : me.user_id;
    } catch {
      // The login itself succeeded; whoami is only for the greeting.
    }
    context.print(`Logged in as ${who}. Token saved to ${context.configFile}.`);
  },
};

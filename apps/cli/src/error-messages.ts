// One line per error code of the API, each with what to do next. The wording depends on which
// credential was sent, since the same code means "log in" for a session and "check the key" for a key.
import { ApiError, CliError, UsageError } from './cli-errors.js';

function suffix(details: string | undefined): string {
  return details ? ` (${details})` : '';
}

export function describeApiError(error: ApiError): string {
  const { code, details, tokenKind, status } = error;
  switch (code) {
    case 'invalid_body':
      return `The server refused the request as malformed${suffix(details)}. Check the arguments.`;
    case 'invalid_query':
      return `The server refused a query parameter${suffix(details)}. Check the flag values.`;
    case 'invalid_model':
      return `Unknown model${suffix(details)}. Run \`vr providers\` to list the models this server offers.`;
    case 'unauthorized':
      if (tokenKind === 'api_key') return `The API key was not accepted (mistyped or revoked)${suffix(details)}: check --api-key, VR_API_KEY or create one with \`vr keys create --name NAME --save\`.`;
      if (tokenKind === 'session') return `Not logged in or the session expired${suffix(details)}: run \`vr login\`.`;
      return `Not logged in${suffix(details)}: run \`vr login\` (or pass an API key with --api-key).`;
    case 'insufficient_credit':
      return `Your wallet cannot cover this request${suffix(details)}. Check it with \`vr credits\` and top it up.`;
    case 'scope_required':
      return tokenKind === 'session'
        ? `This command needs an API key (pk_…), not a login session${suffix(details)}: run \`vr keys create --name NAME --save\`, or pass --api-key / VR_API_KEY.`
        : `This command needs a login session, not an API key${suffix(details)}: run \`vr login\`.`;
    case 'organization_required':
      return `You belong to several organizations${suffix(details)}: pass --org <id> or --org personal (or set VR_ORGANIZATION).`;
    case 'forbidden':
      return `You are not a member of that organization${suffix(details)}: check --org / VR_ORGANIZATION, or use --org personal.`;
    case 'not_found':
      return `Not found${suffix(details)}. Check the id (\`vr keys list\` lists your keys).`;
    case 'method_not_allowed':
      return `The server does not allow this request${suffix(details)}; is --base-url pointing at a Voice Router?`;
    case 'rate_limited':
      return `Too many requests${suffix(details)}: wait a moment and try again.`;
    case 'concurrency_limited':
      return `This key already has as many requests running as it may${suffix(details)}: wait for one to finish, or raise it with \`vr keys update ID --max-concurrency N\`.`;
    case 'spend_limit_exceeded':
      return `This key reached its spend cap${suffix(details)}. Wait for the cap to reset, or change it with \`vr keys update ID --daily-cap USD\` / \`--monthly-cap USD\`.`;
    case 'internal_error':
      return `The server failed with an internal error${suffix(details)}. Try again; if it persists, ask the operator to check its logs.`;
    case 'upstream_error':
      return status === 504
        ? `The speech provider did not answer in time${suffix(details)}. Nothing was charged; try again or pick another model.`
        : `The speech provider failed${suffix(details)}. Nothing was charged; try again or pick another model.`;
    case 'provider_unavailable':
      return `That provider is not available on this server${suffix(details)}: it has no API key configured. \`vr status\` shows which providers work.`;
    case 'auth_disabled':
      return `Login is switched off on this server${suffix(details)}. Use an API key from the operator instead (--api-key or VR_API_KEY).`;
    case 'billing_not_configured':
      return `This server takes no card payments${suffix(details)}. Ask the operator to top up your wallet.`;
    case 'card_declined':
      return `The card was declined${suffix(details ?? error.extra.declineCode)}. Nothing was charged; try another card (\`vr billing methods\`).`;
    case 'stripe_3ds_required':
      return `Your bank wants you to confirm this payment${suffix(details)}. Open ${error.extra.url ?? 'the console\'s Billing page'} in a browser to finish it; later top-ups with this card normally need no confirmation.`;
    case 'invalid_payment_method':
      return `That card is not saved for this account${suffix(details)}. \`vr billing methods\` lists the saved cards.`;
    case 'idempotency_key_reused':
      return `That idempotency key was already used for a different top-up${suffix(details)}. Leave out --idempotency-key to start a new one.`;
    case 'topup_in_progress':
      return `This top-up is still being processed${suffix(details)}. Run the same command again in a moment.`;
    case 'invalid_signature':
      return `The server refused the request's signature${suffix(details)}. Only Stripe's webhook deliveries are signed.`;
    case 'payment_processor_error':
      return `The payment processor did not answer as expected${suffix(details)}. Try again with the same --idempotency-key.`;
    case 'authorization_pending':
      return `The login was not approved yet${suffix(details)}.`;
    case 'slow_down':
      return `The server asked to poll more slowly${suffix(details)}.`;
    case 'access_denied':
      return `The login was denied in the browser${suffix(details)}. Run \`vr login\` again to retry.`;
    case 'expired_token':
      return `The login code expired or was already used${suffix(details)}: run \`vr login\` again.`;
    case 'invalid_device_code':
      return `The server does not know this login code${suffix(details)}: run \`vr login\` again.`;
    default:
      if (code) return `The server answered ${status} ${code}${suffix(details)}.`;
      if (status === 404) return `The server has no such endpoint (HTTP 404)${suffix(details)}: is --base-url right, and is the server recent enough?`;
      return `The server answered HTTP ${status}${suffix(details)}.`;
  }
}

/** The one line printed for any failure, plus the exit code. */
export function describeFailure(error: unknown, baseUrl?: string): { message: string; exitCode: number } {
  if (error instanceof ApiError) return { message: describeApiError(error), exitCode: 1 };
  if (error instanceof UsageError) {
    const help = error.command ? `vr ${error.command} --help` : 'vr --help';
    return { message: `${error.message} (see \`${help}\`)`, exitCode: 2 };
  }
  if (error instanceof CliError) return { message: error.message, exitCode: 1 };
  // fetch rejects with a TypeError whose cause names the socket error (ECONNREFUSED, ENOTFOUND, …).
  if (error instanceof TypeError && error.message === 'fetch failed') {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? 'network error';
    return { message: `Cannot reach the server at ${baseUrl ?? 'the base URL'} (${reason}): is it running? Set --base-url or VR_BASE_URL.`, exitCode: 1 };
  }
  return { message: `Unexpected error: ${error instanceof Error ? error.message : String(error)}`, exitCode: 1 };
}

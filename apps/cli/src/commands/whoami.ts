// `vr whoami`: who the server thinks the stored credential belongs to.
import { JSON_HELP, JSON_OPTION, type Command } from '../command.js';
import { expectData } from '../context.js';
import { formatTimestamp } from '../table.js';
import { API_KEY_HELP, API_KEY_OPTION } from './api-key-option.js';

export const whoamiCommand: Command = {
  name: 'whoami',
  summary: 'Show who you are logged in as',
  synopsis: 'whoami [--api-key KEY] [--json]',
  help: [API_KEY_HELP, JSON_HELP],
  options: { ...JSON_OPTION, ...API_KEY_OPTION },
  async run(context, { values }) {
    const { client, tokenKind } = context.api('either');
    const body = await expectData(client.GET('/v1/auth/whoami'), tokenKind);
    if (values.json) return context.printJson(body);
    if (body.auth === 'session') {
      const expires = body.expires_at ? `, session expires ${formatTimestamp(body.expires_at)}` : '';
      context.print(`Logged in as ${body.email ?? body.user_id} (user ${body.user_id}${expires}) on ${context.settings.baseUrl}`);
    } else {
      context.print(`Using an API key of account ${body.user_id}${body.email ? ` (${body.email})` : ''} on ${context.settings.baseUrl}`);
    }
    if (context.settings.organization && tokenKind === 'session') context.print(`Organization: ${context.settings.organization}`);
    for (const account of body.accounts ?? []) {
      // The ids people pass to --org; `personal` always selects the personal account.
      const id = account.kind === 'personal' ? 'personal' : account.accountId;
      context.print(`  ${account.kind === 'personal' ? 'personal account' : `organization ${account.name}`} (${account.role}): --org ${id}`);
    }
  },
};

// `vr sessions list`: where this user is signed in (browsers and CLI logins); tokens are never shown.
import { JSON_HELP, JSON_OPTION, type Command } from '../command.js';
import { expectData } from '../context.js';
import { formatTimestamp, renderTable } from '../table.js';

export const sessionsListCommand: Command = {
  name: 'sessions list',
  summary: 'List your login sessions (console and CLI)',
  synopsis: 'sessions list [--json]',
  help: [JSON_HELP],
  options: { ...JSON_OPTION },
  async run(context, { values }) {
    const { client, tokenKind } = context.api('session');
    const body = await expectData(client.GET('/v1/auth/sessions'), tokenKind);
    if (values.json) return context.printJson(body);
    context.print(renderTable([
      { header: 'ID', value: (session) => session.id },
      { header: 'KIND', value: (session) => session.kind },
      { header: 'CREATED', value: (session) => formatTimestamp(session.created_at) },
      { header: 'EXPIRES', value: (session) => formatTimestamp(session.expires_at) },
      { header: 'CURRENT', value: (session) => (session.current ? 'yes (this CLI)' : '') },
    ], body.sessions, '(no active sessions)'));
  },
};

// `vr sessions revoke ID`: ends one of your sessions (a browser, another machine's CLI, or this one).
import type { Command } from '../command.js';
import { expectData } from '../context.js';

export const sessionsRevokeCommand: Command = {
  name: 'sessions revoke',
  summary: 'Revoke one of your login sessions by id',
  synopsis: 'sessions revoke ID [--json]',
  help: ['--json                 print the server\'s JSON answer'],
  options: { json: { type: 'boolean' } },
  positionals: { min: 1, max: 1, name: 'ID' },
  async run(context, { values, positionals }) {
    const id = positionals[0]!;
    const { client, tokenKind } = context.api('session');
    // Asked first, because once revoked the stored token can no longer ask.
    const listed = await expectData(client.GET('/v1/auth/sessions'), tokenKind);
    const isCurrent = listed.sessions.some((session) => session.id === id && session.current);
    const body = await expectData(client.DELETE('/v1/auth/sessions/{id}', { params: { path: { id } } }), tokenKind);
    if (isCurrent) context.saveConfig({ sessionToken: undefined, sessionExpiresAt: undefined, userId: undefined });
    if (values.json) return context.printJson(body);
    context.print(isCurrent ? `Revoked session ${id}, the one this CLI was using: you are logged out.` : `Revoked session ${id}.`);
  },
};

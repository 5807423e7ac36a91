// `vr keys revoke ID`: deletes a key on the server; requests with it fail from then on.
import type { Command } from '../command.js';
import { expectData } from '../context.js';

export const keysRevokeCommand: Command = {
  name: 'keys revoke',
  summary: 'Revoke an API key by id',
  synopsis: 'keys revoke ID [--json]',
  help: ['--json                 print the server\'s JSON answer'],
  options: { json: { type: 'boolean' } },
  positionals: { min: 1, max: 1, name: 'ID' },
  async run(context, { values, positionals }) {
    const id = positionals[0]!;
    const { client, tokenKind } = context.api('session');
    const body = await expectData(client.DELETE('/v1/keys/{id}', { params: { path: { id } } }), tokenKind);
    if (values.json) return context.printJson(body);
    context.print(`Revoked key ${id}.`);
  },
};

// `vr status`: which providers can serve requests on this deployment (no upstream calls are made).
import { JSON_HELP, JSON_OPTION, type Command } from '../command.js';
import { expectData } from '../context.js';
import { renderTable } from '../table.js';
import { API_KEY_HELP, API_KEY_OPTION } from './api-key-option.js';

export const statusCommand: Command = {
  name: 'status',
  summary: 'Show which providers are available on the server',
  synopsis: 'status [--api-key KEY] [--json]',
  help: [API_KEY_HELP, JSON_HELP],
  options: { ...JSON_OPTION, ...API_KEY_OPTION },
  async run(context, { values }) {
    const { client, tokenKind } = context.api('either');
    const body = await expectData(client.GET('/v1/status'), tokenKind);
    if (values.json) return context.printJson(body);
    context.print(`Server: ${context.settings.baseUrl}`);
    context.print(renderTable([
      { header: 'PROVIDER', value: (row) => row.id },
      { header: 'STATE', value: (row) => row.state },
      { header: 'REASON', value: (row) => row.reason },
    ], body.providers, '(no providers)'));
  },
};

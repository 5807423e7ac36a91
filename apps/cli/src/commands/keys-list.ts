// `vr keys list`: the API keys of the account the session acts for (secrets are never shown again).
import { JSON_HELP, JSON_OPTION, type Command } from '../command.js';
import { expectData } from '../context.js';
import { formatMicros } from '../money.js';
import { formatTimestamp, renderTable } from '../table.js';

const optionalMoney = (value: number | null | undefined) => (value === null || value === undefined ? '' : formatMicros(value));

export const keysListCommand: Command = {
  name: 'keys list',
  summary: 'List your API keys',
  synopsis: 'keys list [--json]',
  help: [JSON_HELP],
  options: { ...JSON_OPTION },
  async run(context, { values }) {
    const { client, tokenKind } = context.api('session');
    const body = await expectData(client.GET('/v1/keys'), tokenKind);
    if (values.json) return context.printJson(body);
    context.print(renderTable([
      { header: 'ID', value: (key) => key.id },
      { header: 'NAME', value: (key) => key.name },
      { header: 'ENDS WITH', value: (key) => `…${key.keySuffix}` },
      { header: 'CONCURRENCY', value: (key) => key.maxConcurrency, align: 'right' },
      { header: 'PER MINUTE', value: (key) => key.rateLimitPerMinute, align: 'right' },
      { header: 'DAILY CAP', value: (key) => optionalMoney(key.dailySpendCapMicros), align: 'right' },
      { header: 'MONTHLY CAP', value: (key) => optionalMoney(key.monthlySpendCapMicros), align: 'right' },
      { header: 'CREATED', value: (key) => formatTimestamp(key.createdAt) },
    ], body.keys, '(no keys yet: create one with `vr keys create --name NAME`)'));
  },
};

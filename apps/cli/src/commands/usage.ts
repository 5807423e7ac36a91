// `vr usage`: spend and errors over the last days, as a few small tables a person can scan.
import { integerValue, JSON_HELP, JSON_OPTION, type Command } from '../command.js';
import { expectData } from '../context.js';
import { formatMicros } from '../money.js';
import { formatTimestamp, renderPairs, renderTable } from '../table.js';

export const usageCommand: Command = {
  name: 'usage',
  summary: 'Show spend and errors per provider and per day',
  synopsis: 'usage [--days 1..365] [--limit 1..1000] [--json]',
  help: [
    '--days N               how far back to look (1..365, server default 30)',
    '--limit N              how many of the newest requests to aggregate (1..1000)',
    JSON_HELP,
  ],
  options: { ...JSON_OPTION, days: { type: 'string' }, limit: { type: 'string' } },
  async run(context, { values }) {
    const days = integerValue(values, 'days', 1, 365, 'usage');
    const limit = integerValue(values, 'limit', 1, 1000, 'usage');
    const { client, tokenKind } = context.api('session');
    const query = { ...(days === undefined ? {} : { days }), ...(limit === undefined ? {} : { limit }) };
    const body = await expectData(client.GET('/v1/usage', { params: { query } }), tokenKind);
    if (values.json) return context.printJson(body);
    const money = { align: 'right' as const };
    context.print(renderPairs([
      ['Requests', String(body.totals.requests)],
      ['Errors', String(body.totals.errorCount)],
      ['Spent', formatMicros(body.totals.costMicros)],
    ]));
    context.print('\nBy provider');
    context.print(renderTable([
      { header: 'PROVIDER', value: (row) => row.provider },
      { header: 'REQUESTS', value: (row) => row.requests, ...money },
      { header: 'COST', value: (row) => formatMicros(row.costMicros), ...money },
    ], body.byProvider, '(no requests)'));
    if (body.byErrorCode.length > 0) {
      context.print('\nErrors by code');
      context.print(renderTable([
        { header: 'CODE', value: (row) => row.code },
        { header: 'COUNT', value: (row) => row.count, ...money },
      ], body.byErrorCode));
    }
    context.print('\nBy day (UTC)');
    context.print(renderTable([
      { header: 'DAY', value: (row) => row.day },
      { header: 'PROVIDER', value: (row) => row.provider },
      { header: 'REQUESTS', value: (row) => row.requests, ...money },
      { header: 'COST', value: (row) => formatMicros(row.costMicros), ...money },
    ], body.byDay, '(no requests)'));
    context.print('\nRecent requests');
    context.print(renderTable([
      { header: 'TIME', value: (row) => formatTimestamp(row.createdAt) },
      { header: 'REQUEST', value: (row) => row.id },
      { header: 'STATUS', value: (row) => row.status },
      { header: 'COST', value: (row) => formatMicros(row.costMicros), ...money },
    ], body.recent, '(none)').trimEnd());
  },
};

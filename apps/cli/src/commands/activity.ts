// `vr activity`: the wallet's ledger rows, newest first.
import { integerValue, JSON_HELP, JSON_OPTION, type Command } from '../command.js';
import { expectData } from '../context.js';
import { formatMicros } from '../money.js';
import { formatTimestamp, renderTable } from '../table.js';
import { API_KEY_HELP, API_KEY_OPTION } from './api-key-option.js';

function heldAmount(metadata: Record<string, unknown>): string {
  // Reserve and void rows move only the reserved amount, which the ledger keeps in metadata.
  const amount = metadata.amountMicros;
  return typeof amount === 'number' && Number.isSafeInteger(amount) ? formatMicros(amount) : '';
}

export const activityCommand: Command = {
  name: 'activity',
  summary: 'List recent wallet activity (ledger rows)',
  synopsis: 'activity [--limit 1..100] [--api-key KEY] [--json]',
  help: ['--limit N              how many rows, newest first (1..100, server default otherwise)', API_KEY_HELP, JSON_HELP],
  options: { ...JSON_OPTION, ...API_KEY_OPTION, limit: { type: 'string' } },
  async run(context, { values }) {
    const limit = integerValue(values, 'limit', 1, 100, 'activity');
    const { client, tokenKind } = context.api('either');
    const body = await expectData(client.GET('/v1/credits/activity', { params: { query: limit === undefined ? {} : { limit } } }), tokenKind);
    if (values.json) return context.printJson(body);
    context.print(renderTable([
      { header: 'TIME', value: (row) => formatTimestamp(row.createdAt) },
      { header: 'KIND', value: (row) => row.kind },
      { header: 'CHANGE', value: (row) => formatMicros(row.microsDelta), align: 'right' },
      { header: 'HELD', value: (row) => heldAmount(row.metadata), align: 'right' },
      { header: 'BALANCE', value: (row) => formatMicros(row.microsBalanceAfter), align: 'right' },
      { header: 'SOURCE', value: (row) => row.source },
      { header: 'REQUEST', value: (row) => row.reservationId },
    ], body.rows, '(no activity yet)'));
  },
};

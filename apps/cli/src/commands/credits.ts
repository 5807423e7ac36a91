// `vr credits`: the wallet of the account the credential acts for.
import { JSON_HELP, JSON_OPTION, type Command } from '../command.js';
import { expectData } from '../context.js';
import { formatMicros } from '../money.js';
import { renderPairs } from '../table.js';
import { API_KEY_HELP, API_KEY_OPTION } from './api-key-option.js';

export const creditsCommand: Command = {
  name: 'credits',
  summary: 'Show the wallet balance',
  synopsis: 'credits [--api-key KEY] [--json]',
  help: [API_KEY_HELP, JSON_HELP],
  options: { ...JSON_OPTION, ...API_KEY_OPTION },
  async run(context, { values }) {
    const { client, tokenKind } = context.api('either');
    const body = await expectData(client.GET('/v1/credits'), tokenKind);
    if (values.json) return context.printJson(body);
    context.print(renderPairs([
      ['Balance', formatMicros(body.balanceMicros)],
      ['Reserved', formatMicros(body.reservedMicros)],
      ['Spendable', formatMicros(BigInt(body.balanceMicros) - BigInt(body.reservedMicros))],
    ]));
  },
};

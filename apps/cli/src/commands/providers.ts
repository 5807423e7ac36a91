// `vr providers`: every model the server routes to, with formats, price and input limit.
import { JSON_HELP, JSON_OPTION, type Command } from '../command.js';
import { expectData } from '../context.js';
import { renderTable } from '../table.js';
import { API_KEY_HELP, API_KEY_OPTION } from './api-key-option.js';

export const providersCommand: Command = {
  name: 'providers',
  summary: 'List providers and their models, formats and prices',
  synopsis: 'providers [--api-key KEY] [--json]',
  help: [API_KEY_HELP, JSON_HELP],
  options: { ...JSON_OPTION, ...API_KEY_OPTION },
  async run(context, { values }) {
    const { client, tokenKind } = context.api('either');
    const body = await expectData(client.GET('/v1/providers'), tokenKind);
    if (values.json) return context.printJson(body);
    const rows = body.providers.flatMap((provider) => provider.models.map((model) => ({ provider, model })));
    context.print(renderTable([
      { header: 'MODEL', value: ({ provider, model }) => `${provider.id}/${model.id}` },
      { header: 'NAME', value: ({ model }) => model.name },
      { header: 'FORMATS', value: ({ model }) => model.response_formats.join(',') },
      // microsPerUnit micro-dollars per character is exactly that many dollars per million characters.
      { header: 'PER 1M CHARS', value: ({ model }) => `$${model.pricing.microsPerUnit}`, align: 'right' },
      { header: 'MAX CHARS', value: ({ model }) => model.maxInputCharacters, align: 'right' },
    ], rows, '(no providers)'));
  },
};

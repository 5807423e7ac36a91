// `vr voices`: voices across providers, filtered on the server by provider, language and gender.
import { JSON_HELP, JSON_OPTION, listValue, stringValue, type Command } from '../command.js';
import { expectData } from '../context.js';
import { renderTable } from '../table.js';
import { API_KEY_HELP, API_KEY_OPTION } from './api-key-option.js';

export const voicesCommand: Command = {
  name: 'voices',
  summary: 'List voices, optionally filtered',
  synopsis: 'voices [--provider a,b] [--language en] [--gender female] [--api-key KEY] [--json]',
  help: [
    '--provider IDS         comma-separated provider ids (e.g. local,openai)',
    '--language CODE        language prefix, case-insensitive (en matches en-US)',
    '--gender GENDER        exact gender label (female, male, …)',
    API_KEY_HELP,
    JSON_HELP,
  ],
  options: { ...JSON_OPTION, ...API_KEY_OPTION, provider: { type: 'string', multiple: true }, language: { type: 'string' }, gender: { type: 'string' } },
  async run(context, { values }) {
    const { client, tokenKind } = context.api('either');
    // --provider may be repeated or comma-separated; the server takes one comma-separated list.
    const providers = listValue(values, 'provider').flatMap((item) => item.split(',')).map((item) => item.trim()).filter(Boolean);
    const query = {
      ...(providers.length ? { provider: providers.join(',') } : {}),
      ...(stringValue(values, 'language') ? { language: stringValue(values, 'language') } : {}),
      ...(stringValue(values, 'gender') ? { gender: stringValue(values, 'gender') } : {}),
    };
    const body = await expectData(client.GET('/v1/voices', { params: { query } }), tokenKind);
    if (values.json) return context.printJson(body);
    context.print(renderTable([
      { header: 'PROVIDER', value: (voice) => voice.provider },
      { header: 'VOICE', value: (voice) => voice.id },
      { header: 'NAME', value: (voice) => voice.name },
      { header: 'LANGUAGE', value: (voice) => voice.language },
      { header: 'GENDER', value: (voice) => voice.labels.gender },
    ], body.voices, '(no voices match)'));
  },
};

// `vr keys create`: mints a pk_ key and prints its secret once; --save keeps it for `vr say`.
import { integerValue, JSON_HELP, JSON_OPTION, stringValue, type Command } from '../command.js';
import { UsageError } from '../cli-errors.js';
import { expectData } from '../context.js';
import { parseUsdToMicros } from '../money.js';

function usdValue(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  try {
    return parseUsdToMicros(text);
  } catch (error) {
    throw new UsageError(`--${flag}: ${(error as Error).message}`, 'keys create');
  }
}

export const keysCreateCommand: Command = {
  name: 'keys create',
  summary: 'Create an API key (the secret is shown once)',
  synopsis: 'keys create --name NAME [--save] [--max-concurrency N] [--rate-limit N] [--daily-cap USD] [--monthly-cap USD] [--json]',
  help: [
    '--name NAME            a label to tell keys apart (required)',
    '--save                 also store the key in the config file, for `vr say`',
    '--max-concurrency N    requests in flight at once (1..10000)',
    '--rate-limit N         requests per minute (1..1000000)',
    '--daily-cap USD        spend cap per day, e.g. 2.50',
    '--monthly-cap USD      spend cap per month',
    JSON_HELP,
  ],
  options: {
    ...JSON_OPTION,
    name: { type: 'string' },
    save: { type: 'boolean' },
    'max-concurrency': { type: 'string' },
    'rate-limit': { type: 'string' },
    'daily-cap': { type: 'string' },
    'monthly-cap': { type: 'string' },
  },
  async run(context, { values }) {
    const name = stringValue(values, 'name')?.trim();
    if (!name) throw new UsageError('--name is required', 'keys create');
    const maxConcurrency = integerValue(values, 'max-concurrency', 1, 10_000, 'keys create');
    const rateLimitPerMinute = integerValue(values, 'rate-limit', 1, 1_000_000, 'keys create');
    const dailySpendCapMicros = usdValue(stringValue(values, 'daily-cap'), 'daily-cap');
    const monthlySpendCapMicros = usdValue(stringValue(values, 'monthly-cap'), 'monthly-cap');
    const { client, tokenKind } = context.api('session');
    const body = await expectData(client.POST('/v1/keys', {
      body: {
        name,
        ...(maxConcurrency === undefined ? {} : { maxConcurrency }),
        ...(rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute }),
        ...(dailySpendCapMicros === undefined ? {} : { dailySpendCapMicros }),
        ...(monthlySpendCapMicros === undefined ? {} : { monthlySpendCapMicros }),
      },
    }), tokenKind);
    if (values.save) context.saveConfig({ apiKey: body.keyValue });
    if (values.json) return context.printJson(body);
    context.print(`Created key ${body.id} "${body.name}".`);
    context.print(`Secret (shown only now, store it safely): ${body.keyValue}`);
    if (values.save) context.print(`Saved to ${context.configFile}: \`vr say\` will use it.`);
    else context.print('Pass it to `vr say` with --api-key or VR_API_KEY, or run again with --save to store a key.');
  },
};

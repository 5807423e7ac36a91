// `vr keys update ID`: changes a key's name and limits (its creator or an owner of its account).
// `default` returns a limit to the deployment default; `none` removes a spend cap.
import { integerValue, JSON_HELP, JSON_OPTION, stringValue, type Command, type OptionValues } from '../command.js';
import { UsageError } from '../cli-errors.js';
import { expectData } from '../context.js';
import { parseUsdToMicros } from '../money.js';

const COMMAND = 'keys update';

function limitValue(values: OptionValues, flag: string, maximum: number): number | null | undefined {
  return stringValue(values, flag) === 'default' ? null : integerValue(values, flag, 1, maximum, COMMAND);
}

function capValue(values: OptionValues, flag: string): number | null | undefined {
  const text = stringValue(values, flag);
  if (text === undefined) return undefined;
  if (text === 'none') return null;
  try {
    return parseUsdToMicros(text);
  } catch (error) {
    throw new UsageError(`--${flag}: ${(error as Error).message}`, COMMAND);
  }
}

export const keysUpdateCommand: Command = {
  name: COMMAND,
  summary: 'Change a key\'s name or limits',
  synopsis: 'keys update ID [--name NAME] [--max-concurrency N|default] [--rate-limit N|default] [--daily-cap USD|none] [--monthly-cap USD|none] [--json]',
  help: [
    '--name NAME                    a new label',
    '--max-concurrency N|default    speech streams at once (1..10000); default: the server\'s default',
    '--rate-limit N|default         requests per minute (1..1000000); default: the server\'s default',
    '--daily-cap USD|none           spend cap per UTC day, e.g. 2.50; none: no cap',
    '--monthly-cap USD|none         spend cap per UTC month; none: no cap',
    JSON_HELP,
  ],
  options: {
    ...JSON_OPTION,
    name: { type: 'string' },
    'max-concurrency': { type: 'string' },
    'rate-limit': { type: 'string' },
    'daily-cap': { type: 'string' },
    'monthly-cap': { type: 'string' },
  },
  positionals: { min: 1, max: 1, name: 'ID' },
  async run(context, { values, positionals }) {
    const id = positionals[0]!;
    const name = stringValue(values, 'name')?.trim();
    if (name === '') throw new UsageError('--name cannot be empty', COMMAND);
    const changes = {
      name,
      maxConcurrency: limitValue(values, 'max-concurrency', 10_000),
      rateLimitPerMinute: limitValue(values, 'rate-limit', 1_000_000),
      dailySpendCapMicros: capValue(values, 'daily-cap'),
      monthlySpendCapMicros: capValue(values, 'monthly-cap'),
    };
    const body = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    if (Object.keys(body).length === 0) throw new UsageError('give at least one of --name, --max-concurrency, --rate-limit, --daily-cap, --monthly-cap', COMMAND);
    const { client, tokenKind } = context.api('session');
    const key = await expectData(client.PATCH('/v1/keys/{id}', { params: { path: { id } }, body }), tokenKind);
    if (values.json) return context.printJson(key);
    context.print(`Updated key ${key.id} "${key.name}".`);
  },
};

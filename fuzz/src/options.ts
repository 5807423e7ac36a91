// `npm run fuzz [-- --quick] [--runs N] [--seed S] [--time-limit-s T]`.
import { parseArgs } from 'node:util';

export interface FuzzOptions {
  runs: number;
  seed: number;
  /** Generation stops here (fast-check's interruptAfterTimeLimit); the checks after the run still happen. */
  timeLimitMs: number;
  requestTimeoutMs: number;
}

export const USAGE = `usage: npm run fuzz -- [--quick] [--runs N] [--seed S] [--time-limit-s T]
  --quick         about 1,000 inputs within about 60 s (CI)
  --runs N        inputs to generate (default 10000)
  --seed S        replay a run (the summary prints the seed)
  --time-limit-s  stop generating after T seconds (default 1200, quick 60)`;

function positiveInteger(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new Error(`--${name} must be a positive whole number\n${USAGE}`);
  return Number(value);
}

export function parseOptions(argv: string[]): FuzzOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      runs: { type: 'string' },
      seed: { type: 'string' },
      'time-limit-s': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) throw new Error(USAGE);
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isSafeInteger(seed)) throw new Error(`--seed must be an integer\n${USAGE}`);
  return {
    runs: positiveInteger(values.runs, 'runs') ?? (values.quick ? 1_000 : 10_000),
    seed: seed ?? (Date.now() ^ (process.pid << 8)),
    timeLimitMs: (positiveInteger(values['time-limit-s'], 'time-limit-s') ?? (values.quick ? 60 : 1_200)) * 1000,
    requestTimeoutMs: 30_000,
  };
}

// Node flags a launcher puts before an app's script: V8 sizes its heap before any JavaScript runs, so an
// app cannot set them for itself. No imports, so a launcher can load this file alone
// (`@voice-router/service-kit/node-flags`).

/**
 * The flags of `flags` that NODE_OPTIONS does not already give. An operator's value wins: a flag on the
 * command line would override the one in NODE_OPTIONS, so the launcher leaves its own out.
 */
export function nodeFlagsNotGiven(flags: readonly string[], environment: Readonly<Record<string, string | undefined>>): string[] {
  const given = environment.NODE_OPTIONS ?? '';
  return flags.filter((flag) => !given.includes(flag.slice(0, flag.indexOf('='))));
}

/**
 * The scaled data plane's flags (the image's CMD, README's command and the benchmark pass them).
 *
 * `--max-semi-space-size=16` caps V8's young generation at 32 MiB, two semi-spaces of 16: V8's default on
 * Node 20 (and Node 22), where the data plane met its memory target with it. Node 24 lets it grow to 128 MiB
 * (64 MiB semi-spaces; measured on a 24 GiB machine), and what it holds there under load is mostly garbage
 * not yet collected. Measured with `npm run bench -- --memory-only` (1,000 slow
 * streams, the data plane on Node 24 through its node:http adapter; session 37): peaks of 211–230 MB in four
 * runs with it against 358 without (the young generation 32 MiB against 128); with 8, 197 MB. Its CPU per
 * short request on Node 24 (`--data-plane`, two alternating pairs on a slow, noisy host): 1.53 and 1.40 times
 * the Node 20 data plane's of the same run with it, 1.35 and 1.35 without, so perhaps up to a tenth more,
 * within that host's noise. On Node 20 it changes nothing: 16 is its default.
 */
export const DATA_PLANE_NODE_FLAGS: readonly string[] = Object.freeze(['--max-semi-space-size=16']);

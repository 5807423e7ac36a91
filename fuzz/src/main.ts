// `npm run fuzz`: property-based fuzzing (fast-check) of every route of the embedded service, started
// here as a real process on loopback. Each generated request must get a well-formed answer and leave
// the process alive; after the run the money must add up. Exits non-zero with the shrunk counterexample.
import fc from 'fast-check';
import { createIdentities, type FuzzIdentities } from './accounts.js';
import { fuzzRequest, type FuzzWorld } from './arbitraries/requests.js';
import type { SpeechTarget } from './arbitraries/bodies.js';
import { checkResponse } from './checks.js';
import { send, type FuzzRequest } from './http-client.js';
import { trackMoney, type MoneyTracker } from './money.js';
import { parseOptions, type FuzzOptions } from './options.js';
import { startServiceUnderFuzz, type ServiceUnderFuzz } from './service.js';
import { RunStatistics } from './summary.js';

/** A server may leave oversized headers unanswered until its idle timeout; waiting that out only slows the run. */
const OVERSIZED_TIMEOUT_MS = 1_000;

/** Local synthesis runs on this machine's CPU: short texts keep the run bounded. */
const LOCAL_MAX_INPUT = 200;

async function speechTargets(baseUrl: string, key: string): Promise<SpeechTarget[]> {
  const get = async (path: string) => (await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } })).json();
  const { providers } = (await get('/v1/providers')) as { providers: Array<{ id: string; models: Array<{ id: string; maxInputCharacters: number }> }> };
  const { voices } = (await get('/v1/voices')) as { voices: Array<{ id: string; provider: string; model_compatibility: string[] }> };
  return providers.flatMap((provider) =>
    provider.models.map((model) => {
      const compatible = voices.filter((voice) => voice.provider === provider.id && (voice.model_compatibility.length === 0 || voice.model_compatibility.includes(model.id)));
      const maxInput = provider.id === 'local' ? Math.min(LOCAL_MAX_INPUT, model.maxInputCharacters) : model.maxInputCharacters;
      const voiceIds = compatible.slice(0, 5).map((voice) => voice.id);
      // The fakes serve openai; local synthesizes here; elevenlabs fails upstream and cartesia has no key.
      const weight = provider.id === 'openai' ? 6 : provider.id === 'local' ? 2 : 1;
      return { model: `${provider.id}/${model.id}`, voices: voiceIds.length ? voiceIds : ['none'], maxInput, weight };
    }),
  );
}

/** Well-formed speech requests the run always sends, whatever the seed generated. */
const KNOWN_GOOD_SPEECH = 3;

/**
 * Speech requests of the rich account to the served upstream (the openai fake) that must succeed: they
 * prove the upstream settings work, so the money check always has charged answers to account for. (A
 * seed may generate few well-formed speech bodies; one run generated none that passed.)
 */
function knownGoodSpeech(world: FuzzWorld): FuzzRequest[] {
  const target = world.speechTargets.find((candidate) => candidate.model.startsWith('openai/') && candidate.voices[0] !== 'none');
  if (!target) return [];
  return Array.from({ length: KNOWN_GOOD_SPEECH }, (_, index) => ({
    route: 'POST /v1/audio/speech', method: 'POST', target: '/v1/audio/speech', canonicalPath: true,
    headers: { authorization: `Bearer ${world.identities.rich.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: target.model, voice: target.voices[0], input: `Known good request ${index + 1}.` }),
  }));
}

/** A counterexample as a person would retype it. */
function describeRequest(request: FuzzRequest): string {
  const headers = Object.entries(request.headers).map(([name, value]) => `  ${name}: ${value.length > 200 ? `${value.slice(0, 200)}… (${value.length} chars)` : value}`);
  const body = request.body === undefined ? '' : `\n  body${request.chunked ? ' (chunked)' : ''}${request.bodyLatin1 ? ' (latin1)' : ''}: ${JSON.stringify(request.body.length > 2_000 ? `${request.body.slice(0, 2_000)}…` : request.body)} (${request.body.length} chars)`;
  const leaves = request.leaveAfterMs === undefined ? '' : `\n  (the client leaves ${request.leaveAfterMs} ms after sending)`;
  return `${request.method} ${request.target}  [route: ${request.route}]\n${headers.join('\n')}${body}${leaves}`;
}

async function fuzz(options: FuzzOptions): Promise<number> {
  const started = Date.now();
  process.stdout.write(`fuzz: Node ${process.version}, seed ${options.seed}, up to ${options.runs} inputs within ${options.timeLimitMs / 1000} s\n`);
  const service: ServiceUnderFuzz = await startServiceUnderFuzz();
  const failures: string[] = [];
  try {
    let identities: FuzzIdentities;
    let world: FuzzWorld;
    let money: MoneyTracker;
    try {
      identities = await createIdentities(service);
      world = { identities, speechTargets: await speechTargets(service.baseUrl, identities.rich.key) };
      money = await trackMoney(service.baseUrl, identities.accounts);
    } catch (error) {
      // Setting up goes through the console and the catalog: a service that dies there is the finding.
      // The failed request may be seen before the process's exit: give it a moment.
      for (let waited = 0; service.deaths.length === 0 && waited < 3_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      const death = service.deaths.at(-1);
      if (!death) throw error;
      failures.push(`the service process died while the run was being set up (${(error as Error).message}; exit ${death.code ?? '?'}, signal ${death.signal ?? 'none'}):\n${death.lastLines}`);
      return report(failures);
    }
    const statistics = new RunStatistics();
    process.stdout.write(`fuzz: service at ${service.baseUrl} (${service.implementation()}), accounts ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

    const property = fc.asyncProperty(fuzzRequest(world), async (request) => {
      const sentAt = performance.now();
      const response = await send(service.baseUrl, request, request.oversizedHeaders ? OVERSIZED_TIMEOUT_MS : options.requestTimeoutMs);
      if (process.env.FUZZ_TRACE) process.stdout.write(`${(performance.now() - sentAt).toFixed(0)} ms ${request.method} ${request.target.slice(0, 60)} -> ${response.kind === 'answered' ? response.status : response.kind}\n`);
      statistics.record(request, response);
      money.record(request, response);
      if (!service.alive()) {
        const death = service.deaths.at(-1);
        await service.restart();
        throw new Error(`the service process died (exit ${death?.code ?? '?'}, signal ${death?.signal ?? 'none'}):\n${death?.lastLines ?? ''}`);
      }
      const problems = checkResponse(request, response);
      if (problems.length) throw new Error(problems.join('; '));
    });
    const fuzzingStarted = Date.now();
    const details = await fc.check(property, { numRuns: options.runs, seed: options.seed, interruptAfterTimeLimit: options.timeLimitMs });
    const fuzzingSeconds = (Date.now() - fuzzingStarted) / 1000;
    if (details.failed) {
      failures.push(
        `property failed after ${details.numRuns} inputs (${details.numShrinks} shrinks): ${String((details.errorInstance as Error | undefined)?.message ?? details.errorInstance)}\n` +
          `shrunk counterexample:\n${details.counterexample ? describeRequest(details.counterexample[0]) : '(none)'}\n` +
          `replay with: npm run fuzz -- --seed ${details.seed} --runs ${options.runs}`,
      );
    }
    if (service.deaths.length) failures.push(`the service process died ${service.deaths.length} time(s) during the run`);
    if (!service.alive()) await service.restart();
    const knownGood = knownGoodSpeech(world);
    if (knownGood.length === 0) failures.push('the catalog lists no openai model with a voice: the well-formed speech requests cannot be sent');
    let knownGoodServed = 0;
    for (const request of knownGood) {
      const response = await send(service.baseUrl, request, options.requestTimeoutMs);
      money.record(request, response);
      const problems = checkResponse(request, response);
      if (response.kind === 'answered' && response.status === 200 && problems.length === 0) knownGoodServed += 1;
      else {
        failures.push(
          `a well-formed speech request got ${response.kind === 'answered' ? response.status : response.kind}${problems.length ? ` (${problems.join('; ')})` : ''}: ` +
            `the upstream settings are wrong, so the money check proves nothing\n${describeRequest(request)}`,
        );
      }
    }
    failures.push(...(await money.verify(service)));

    const charged = [...money.charged()].map(([email, micros]) => `${email} ${micros}`).join(', ');
    process.stdout.write(
      `\nfuzz summary: ${statistics.inputs} inputs (shrinking included) in ${fuzzingSeconds.toFixed(1)} s, ${(statistics.inputs / Math.max(fuzzingSeconds, 0.001)).toFixed(0)}/s` +
        `${details.interrupted ? ' (stopped at the time limit)' : ''}; seed ${details.seed}\n${statistics.render()}\n` +
        `  well-formed speech requests sent after the fuzzing: ${knownGoodServed} of ${knownGood.length} served\n` +
        `  charged in 200 speech answers (micro-dollars): ${charged}\n` +
        `  process deaths: ${service.deaths.length}; total ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  } finally {
    await service.close();
  }
  return report(failures);
}

function report(failures: string[]): number {
  for (const failure of failures) process.stdout.write(`\nFAIL: ${failure}\n`);
  process.stdout.write(failures.length ? `\nfuzz: ${failures.length} failure(s)\n` : '\nfuzz: no failures\n');
  return failures.length ? 1 : 0;
}

let options: FuzzOptions;
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(2);
}
fuzz(options).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`fuzz: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);

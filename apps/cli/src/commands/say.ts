// `vr say`: synthesizes speech with a pk_ key and streams the audio to a file or stdout as it
// arrives; what it cost and which provider served it go to stderr, away from the audio.
import { stringValue, type Command } from '../command.js';
import { apiErrorFrom, CliError, UsageError } from '../cli-errors.js';
import { copyToStream, openAudioFile } from '../audio-output.js';
import { formatMicros } from '../money.js';
import { API_KEY_HELP, API_KEY_OPTION } from './api-key-option.js';

const FORMATS = ['mp3', 'pcm'] as const;
type Format = (typeof FORMATS)[number];

function parseSpeed(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const speed = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(speed) || speed <= 0) throw new UsageError(`--speed must be a positive number, got "${text}"`, 'say');
  return speed;
}

export const sayCommand: Command = {
  name: 'say',
  summary: 'Synthesize speech to a file or stdout (needs an API key)',
  synopsis: 'say "TEXT" --model PROVIDER/MODEL --voice VOICE [--format mp3|pcm] [-o FILE|-] [--speed N] [--instructions TEXT]',
  help: [
    '--model ID             e.g. local/espeak-ng, openai/tts-1 (see `vr providers`)',
    '--voice ID             a voice of that provider (see `vr voices`)',
    '--format mp3|pcm       mp3 (default) or raw 16-bit 24 kHz mono PCM',
    '-o, --output FILE      write the audio here; "-" for stdout (the default when stdout is not a terminal)',
    '--speed N              speaking speed, where the provider supports it',
    '--instructions TEXT    style instructions, where the provider supports them',
    API_KEY_HELP,
  ],
  options: {
    ...API_KEY_OPTION,
    model: { type: 'string' },
    voice: { type: 'string' },
    format: { type: 'string' },
    output: { type: 'string', short: 'o' },
    speed: { type: 'string' },
    instructions: { type: 'string' },
  },
  positionals: { min: 1, max: Number.POSITIVE_INFINITY, name: 'TEXT' },
  async run(context, { values, positionals }) {
    const input = positionals.join(' ');
    const model = stringValue(values, 'model');
    const voice = stringValue(values, 'voice');
    if (!model) throw new UsageError('--model is required (e.g. --model local/espeak-ng; `vr providers` lists them)', 'say');
    if (!voice) throw new UsageError('--voice is required (e.g. --voice en-us; `vr voices` lists them)', 'say');
    const format = (stringValue(values, 'format') ?? 'mp3') as Format;
    if (!FORMATS.includes(format)) throw new UsageError(`--format must be mp3 or pcm, got "${format}"`, 'say');
    const speed = parseSpeed(stringValue(values, 'speed'));
    const instructions = stringValue(values, 'instructions');
    const output = stringValue(values, 'output');
    const toStdout = output === '-' || (output === undefined && !context.io.stdout.isTTY);
    if (output === undefined && !toStdout) throw new UsageError('refusing to write audio to a terminal: pass -o FILE, or pipe the output', 'say');

    const { client, tokenKind } = context.api('api-key');
    const file = toStdout ? undefined : await openAudioFile(output!);
    const { data, error, response } = await client.POST('/v1/audio/speech', {
      body: {
        model,
        input,
        voice,
        response_format: format,
        ...(speed === undefined ? {} : { speed }),
        ...(instructions === undefined ? {} : { instructions }),
      },
      parseAs: 'stream',
    }).catch((failure: unknown) => {
      file?.discard();
      throw failure;
    });
    if (!response.ok || !data) {
      file?.discard();
      throw apiErrorFrom(response, error, tokenKind);
    }

    let bytes: number;
    try {
      bytes = file ? await file.write(data) : await copyToStream(data, context.io.stdout);
    } catch (failure) {
      // The router cuts a response short when the provider fails mid-stream, and then charges nothing.
      throw new CliError(`The audio stream broke off (${(failure as Error).message})${toStdout ? '' : '; the partial file was removed'}. Try again.`);
    }
    const details = [`${bytes} bytes`];
    const provider = response.headers.get('x-router-provider');
    const cost = response.headers.get('x-router-cost-micros');
    const requestId = response.headers.get('x-request-id');
    if (provider) details.push(`provider ${provider}`);
    if (cost && /^\d+$/.test(cost)) details.push(`cost ${formatMicros(cost)}`);
    if (requestId) details.push(`request ${requestId}`);
    context.note(`${toStdout ? 'Streamed' : `Wrote ${output}:`} ${details.join(', ')}`);
    const warnings = response.headers.get('x-router-warnings');
    for (const warning of warnings ? warnings.split(';') : []) if (warning.trim()) context.note(`Warning: ${warning.trim()}`);
  },
};

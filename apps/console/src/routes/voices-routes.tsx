// The Voices page: the catalog as the data plane serves it (read with the visitor's own session), filtered
// like GET /v1/voices, and a sample synthesis priced first and then paid from the selected account's wallet.
import express, { type Request, type Response } from 'express';
import type { ConsoleCatalog, ConsoleCatalogProvider, ConsoleSample, ConsoleVoiceFilter } from '../console-services.js';
import { field, queryString } from '../http/form.js';
import { requireSignedIn, sessionTokenOf, signedIn } from '../http/request-context.js';
import { allowMedia, sendPage } from '../http/render.js';
import { countCharacters, samplePrice, SAMPLE_MAX_CHARACTERS, VoicesPage, type SampleRequest, type VoicesPageProps } from '../pages/voices-page.js';
import { isFailure, statusFor, viewerOf, type RouteDependencies } from './route-support.js';

type Read = (name: string, maxLength?: number) => string;

function readFilter(read: Read): ConsoleVoiceFilter {
  const filter: ConsoleVoiceFilter = {};
  for (const key of ['provider', 'language', 'gender'] as const) {
    const value = read(key, 100).trim();
    if (value) filter[key] = value;
  }
  return filter;
}

function readSample(read: Read): SampleRequest | undefined {
  const provider = read('sample_provider', 100);
  const voice = read('sample_voice', 200);
  if (!provider || !voice) return undefined;
  return {
    provider,
    voice,
    model: read('sample_model', 200),
    format: read('sample_format', 10) === 'pcm' ? 'pcm' : 'mp3',
    text: read('sample_text', SAMPLE_MAX_CHARACTERS + 1),
  };
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

async function renderVoices(
  catalog: ConsoleCatalog,
  request: Request,
  response: Response,
  read: Read,
  extra: { result?: ConsoleSample; error?: string; status?: number } = {},
): Promise<void> {
  const viewer = viewerOf(response);
  const sessionToken = sessionTokenOf(response) ?? '';
  const filter = readFilter(read);
  const [providers, voices] = await Promise.all([catalog.providers({ sessionToken }), catalog.voices({ sessionToken, filter })]);
  if (isFailure(providers) || isFailure(voices)) {
    const failure = isFailure(providers) ? providers : (voices as Exclude<typeof voices, ConsoleCatalogProvider[]> & { message: string });
    return sendPage(response, <VoicesPage viewer={viewer} filter={filter} providers={[]} voices={[]} error={failure.message} />, 502);
  }
  const configured = providers.filter((provider) => provider.configured);
  const configuredIds = new Set(configured.map((provider) => provider.id));
  // Only configured providers' voices: the others cannot speak on this deployment.
  const shown = voices.filter((voice) => configuredIds.has(voice.provider));
  const props: VoicesPageProps = { viewer, filter, providers: configured, voices: shown, result: extra.result, error: extra.error };
  const wanted = readSample(read);
  const voice = wanted && voices.find((candidate) => candidate.provider === wanted.provider && candidate.id === wanted.voice);
  const provider = wanted && configured.find((candidate) => candidate.id === wanted.provider);
  if (wanted && voice && provider) {
    const model = provider.models.find((candidate) => candidate.id === wanted.model) ??
      provider.models.find((candidate) => voice.modelCompatibility.includes(candidate.id)) ?? provider.models[0];
    const format = model?.responseFormats.includes(wanted.format) ? wanted.format : 'mp3';
    props.sample = { ...wanted, model: model?.id ?? '', format, voiceName: voice.name };
    const characters = countCharacters(wanted.text);
    if (model && wanted.text.trim() && characters <= SAMPLE_MAX_CHARACTERS) props.priceMicros = samplePrice(characters, model.microsPerCharacter);
    else if (characters > SAMPLE_MAX_CHARACTERS) props.error ??= `A sample is at most ${SAMPLE_MAX_CHARACTERS} characters.`;
  }
  allowMedia(response, shown.flatMap((candidate) => (candidate.previewUrl ? [originOf(candidate.previewUrl) ?? ''] : [])));
  sendPage(response, <VoicesPage {...props} />, extra.status ?? 200);
}

export function voicesRoutes({ services }: RouteDependencies): express.Router {
  const router = express.Router();
  const catalog = services.catalog;
  if (!catalog) return router;
  router.use('/voices', requireSignedIn(services));

  router.get('/voices', async (request, response) => {
    await renderVoices(catalog, request, response, (name, maxLength) => queryString(request, name, maxLength));
  });

  router.post('/voices/sample', async (request, response) => {
    const read: Read = (name, maxLength) => field(request, name, maxLength);
    const sample = readSample(read);
    const { session, account } = signedIn(response);
    if (!sample || !sample.text.trim() || countCharacters(sample.text) > SAMPLE_MAX_CHARACTERS || !sample.model) {
      return renderVoices(catalog, request, response, read, { error: `Choose a voice and model, and write 1 to ${SAMPLE_MAX_CHARACTERS} characters.`, status: 400 });
    }
    const result = await catalog.synthesizeSample({
      userId: session.userId, accountId: account.accountId, model: `${sample.provider}/${sample.model}`, voice: sample.voice, format: sample.format, text: sample.text,
    });
    if (isFailure(result)) return renderVoices(catalog, request, response, read, { error: result.message, status: statusFor(result) });
    await renderVoices(catalog, request, response, read, { result });
  });

  return router;
}

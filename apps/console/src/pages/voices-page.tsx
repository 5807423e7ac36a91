// Voices: every configured provider's voices with the API's filters (provider, language prefix, gender), a
// preview player where the provider offers one, and a short sample of your own text, priced before it is
// paid from the selected account's wallet, played back on the page.
import type { ConsoleCatalogProvider, ConsoleCatalogVoice, ConsoleSample, ConsoleVoiceFilter } from '../console-services.js';
import { formatMicros } from '../money.js';
import { CsrfField, Notice } from './components.js';
import { Layout, type Viewer } from './layout.js';

/** The longest sample text: a sample is a taste, not a production run. */
export const SAMPLE_MAX_CHARACTERS = 300;

export interface SampleRequest {
  provider: string;
  voice: string;
  model: string;
  format: 'mp3' | 'pcm';
  text: string;
}

export interface VoicesPageProps {
  viewer: Viewer;
  filter: ConsoleVoiceFilter;
  providers: ConsoleCatalogProvider[];
  voices: ConsoleCatalogVoice[];
  /** The voice picked for a sample, with the form's current values. */
  sample?: SampleRequest & { voiceName: string };
  /** Shown once the sample form has text: what it will cost. */
  priceMicros?: number;
  result?: ConsoleSample;
  error?: string;
}

/** Code points, as the router bills them. */
export function countCharacters(text: string): number {
  let count = 0;
  for (const _character of text) count += 1;
  return count;
}

/** Integer arithmetic on the catalog's per-character price (which may be fractional): ceil(chars × price). */
export function samplePrice(characters: number, microsPerCharacter: number): number {
  return Math.ceil(characters * microsPerCharacter - 1e-9);
}

/** Raw s16le 24 kHz mono PCM wrapped in a WAV header, only so the browser's <audio> can play it. */
export function pcmAsWav(pcm: Buffer): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(24_000, 24);
  header.writeUInt32LE(48_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

function sampleAudioSource(sample: ConsoleSample): string {
  return sample.format === 'pcm'
    ? `data:audio/wav;base64,${pcmAsWav(sample.audio).toString('base64')}`
    : `data:audio/mpeg;base64,${sample.audio.toString('base64')}`;
}

function tryLink(voice: ConsoleCatalogVoice, filter: ConsoleVoiceFilter): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value) query.set(key, value);
  query.set('sample_provider', voice.provider);
  query.set('sample_voice', voice.id);
  return `/console/voices?${query.toString()}#sample`;
}

function FilterForm({ filter, providers }: { filter: ConsoleVoiceFilter; providers: ConsoleCatalogProvider[] }) {
  return (
    <form method="get" action="/console/voices" class="card" aria-label="Filter voices">
      <div class="field">
        <label for="provider">Provider</label>
        <select id="provider" name="provider">
          <option value="">All configured providers</option>
          {providers.map((provider) => (
            <option value={provider.id} selected={filter.provider === provider.id}>{provider.name}</option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="language">Language</label>
        <span class="hint" id="language-hint">A language tag or its prefix: en matches en-US and en-GB.</span>
        <input id="language" name="language" type="text" value={filter.language ?? ''} maxLength={35} aria-describedby="language-hint" />
      </div>
      <div class="field">
        <label for="gender">Gender</label>
        <select id="gender" name="gender">
          {['', 'female', 'male', 'neutral'].map((gender) => (
            <option value={gender} selected={(filter.gender ?? '') === gender}>{gender || 'Any'}</option>
          ))}
        </select>
      </div>
      <button type="submit">Filter</button>
    </form>
  );
}

function SampleSection(props: VoicesPageProps & { sample: NonNullable<VoicesPageProps['sample']> }) {
  const { sample, viewer } = props;
  const provider = props.providers.find((candidate) => candidate.id === sample.provider);
  const models = provider?.models ?? [];
  const model = models.find((candidate) => candidate.id === sample.model) ?? models[0];
  return (
    <section class="card" id="sample" aria-labelledby="sample-heading">
      <h2 id="sample-heading">Try {sample.voiceName} ({provider?.name ?? sample.provider})</h2>
      <form method="get" action="/console/voices#sample" aria-label="Sample settings">
        {Object.entries(props.filter).map(([key, value]) => (value ? <input type="hidden" name={key} value={value} /> : null))}
        <input type="hidden" name="sample_provider" value={sample.provider} />
        <input type="hidden" name="sample_voice" value={sample.voice} />
        <div class="field">
          <label for="sample-model">Model</label>
          <select id="sample-model" name="sample_model">
            {models.map((candidate) => (
              <option value={candidate.id} selected={candidate.id === model?.id}>
                {candidate.name} ({formatMicros(candidate.microsPerCharacter * 1000)} per 1,000 characters)
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="sample-format">Format</label>
          <select id="sample-format" name="sample_format">
            {(model?.responseFormats ?? ['mp3']).map((format) => (
              <option value={format} selected={format === sample.format}>{format === 'mp3' ? 'MP3' : 'PCM (16-bit, 24 kHz)'}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="sample-text">Text</label>
          <span class="hint" id="sample-text-hint">Up to {SAMPLE_MAX_CHARACTERS} characters.</span>
          <textarea id="sample-text" name="sample_text" maxLength={SAMPLE_MAX_CHARACTERS} rows={3} aria-describedby="sample-text-hint">{sample.text}</textarea>
        </div>
        <button type="submit" class="secondary">Show price</button>
      </form>
      {props.priceMicros !== undefined && model ? (
        <form method="post" action="/console/voices/sample#sample" aria-label="Synthesize sample">
          <CsrfField token={viewer.csrfToken} />
          {Object.entries(props.filter).map(([key, value]) => (value ? <input type="hidden" name={key} value={value} /> : null))}
          <input type="hidden" name="sample_provider" value={sample.provider} />
          <input type="hidden" name="sample_voice" value={sample.voice} />
          <input type="hidden" name="sample_model" value={model.id} />
          <input type="hidden" name="sample_format" value={sample.format} />
          <input type="hidden" name="sample_text" value={sample.text} />
          <p>
            Price: <strong data-testid="sample-price">{formatMicros(props.priceMicros)}</strong> for {countCharacters(sample.text)} characters
            with {model.name}, paid from the wallet of {viewer.account.name}.
          </p>
          <button type="submit">Synthesize for {formatMicros(props.priceMicros)}</button>
        </form>
      ) : null}
      {props.result ? (
        <div>
          <p role="status">Charged {formatMicros(props.result.costMicros)}.</p>
          <audio controls autoplay src={sampleAudioSource(props.result)} aria-label="Your sample" data-testid="sample-audio" />
        </div>
      ) : null}
    </section>
  );
}

export function VoicesPage(props: VoicesPageProps) {
  const providerName = new Map(props.providers.map((provider) => [provider.id, provider.name]));
  return (
    <Layout title="Voices" viewer={props.viewer} section="voices">
      <h1>Voices</h1>
      {props.error ? <Notice kind="error">{props.error}</Notice> : null}
      <FilterForm filter={props.filter} providers={props.providers} />
      {props.sample ? <SampleSection {...props} sample={props.sample} /> : null}
      <section class="card" aria-labelledby="voices-heading">
        <h2 id="voices-heading">{props.voices.length} voices</h2>
        {props.voices.length === 0 ? <p class="muted">No voice matches these filters.</p> : (
          <div class="table-scroll">
            <table>
              <thead>
                <tr><th>Name</th><th>Provider</th><th>Language</th><th>Gender</th><th>Labels</th><th>Preview</th><th>Sample</th></tr>
              </thead>
              <tbody>
                {props.voices.map((voice) => (
                  <tr>
                    <td>{voice.name}</td>
                    <td>{providerName.get(voice.provider) ?? voice.provider}</td>
                    <td>{voice.language}</td>
                    <td>{voice.labels.gender ?? ''}</td>
                    <td class="muted">{Object.entries(voice.labels).filter(([key]) => key !== 'gender' && key !== 'description').slice(0, 4).map(([key, value]) => `${key}: ${value}`).join(', ')}</td>
                    <td>{voice.previewUrl ? <audio controls preload="none" src={voice.previewUrl} aria-label={`Preview of ${voice.name}`} /> : <span class="muted">none</span>}</td>
                    <td><a href={tryLink(voice, props.filter)} aria-label={`Try ${voice.name}`}>Try</a></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </Layout>
  );
}

// Wraps the eSpeak NG Emscripten build: instantiated once per worker thread and reused for every job.
import createEspeakModule from '@echogarden/espeak-ng-emscripten';

export const ESPEAK_SAMPLE_RATE = 22_050;
export const ESPEAK_MIN_RATE = 80;
export const ESPEAK_DEFAULT_RATE = 175;
export const ESPEAK_MAX_RATE = 450;

export interface SpeechEngine {
  /** Throws when eSpeak NG does not know the voice, instead of silently keeping the previous one. */
  configure(espeakVoice: string, rate: number): void;
  /**
   * Synthesizes plain text synchronously, handing each block of 22,050 Hz samples to `onSamples`;
   * returning false from it stops the synthesis at once.
   */
  synthesize(text: string, onSamples: (samples: Int16Array) => boolean): void;
}

// This build parses SSML: a literal `<break time="600s"/>` in user text would become ten minutes of
// silence. Escaping makes eSpeak read the characters as text, which is what an API caller means.
function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export async function loadEspeakEngine(): Promise<SpeechEngine> {
  const module = await createEspeakModule();
  const espeak = new module.eSpeakNGWorker();
  if (espeak.samplerate !== ESPEAK_SAMPLE_RATE) {
    throw new Error(`eSpeak NG produces ${espeak.samplerate} Hz audio, expected ${ESPEAK_SAMPLE_RATE} Hz`);
  }
  let currentVoice: string | undefined;

  return {
    configure(espeakVoice, rate) {
      if (espeakVoice !== currentVoice) {
        const status = espeak.set_voice(espeakVoice);
        if (status !== 0) throw new Error(`eSpeak NG has no voice "${espeakVoice}" (status ${status})`);
        currentVoice = espeakVoice;
      }
      espeak.rate = rate;
    },

    synthesize(text, onSamples) {
      // An exception thrown through the compiled C frames would leave eSpeak's state undefined, so
      // errors are carried out of the callback and rethrown after eSpeak has unwound normally.
      let failure: { error: unknown } | undefined;
      espeak.synthesize(escapeMarkup(text), (samples) => {
        if (samples.length === 0) return false;
        try {
          return !onSamples(samples);
        } catch (error) {
          failure = { error };
          return true;
        }
      });
      if (failure) throw failure.error;
    },
  };
}

// The curated voice list: stable, URL-safe ids mapped to eSpeak NG voice names (+variant for female voices).

export interface LocalVoice {
  id: string;
  name: string;
  /** BCP 47 tag, e.g. `en-US`. */
  language: string;
  gender?: 'male' | 'female';
}

export interface CuratedVoice extends LocalVoice {
  /** Name passed to eSpeak NG's set_voice: a voice file name, optionally `+variant`. */
  espeakName: string;
}

// eSpeak's default voices sound male; the `f3` variant gives the clearest female voice across
// languages. Ids must never change once published: clients store them.
const CURATED_VOICES: readonly CuratedVoice[] = [
  { id: 'en-us', name: 'English (US)', language: 'en-US', gender: 'male', espeakName: 'en-us' },
  { id: 'en-us-f', name: 'English (US), female', language: 'en-US', gender: 'female', espeakName: 'en-us+f3' },
  { id: 'en-us-f2', name: 'English (US), female 2', language: 'en-US', gender: 'female', espeakName: 'en-us+f4' },
  { id: 'en-gb', name: 'English (UK)', language: 'en-GB', gender: 'male', espeakName: 'en' },
  { id: 'en-gb-f', name: 'English (UK), female', language: 'en-GB', gender: 'female', espeakName: 'en+f3' },
  { id: 'en-gb-rp', name: 'English (UK, Received Pronunciation)', language: 'en-GB', gender: 'male', espeakName: 'en-gb-x-rp' },
  { id: 'en-gb-scotland', name: 'English (Scotland)', language: 'en-GB-scotland', gender: 'male', espeakName: 'en-gb-scotland' },
  { id: 'de', name: 'German', language: 'de-DE', gender: 'male', espeakName: 'de' },
  { id: 'de-f', name: 'German, female', language: 'de-DE', gender: 'female', espeakName: 'de+f3' },
  { id: 'fr', name: 'French', language: 'fr-FR', gender: 'male', espeakName: 'fr' },
  { id: 'fr-f', name: 'French, female', language: 'fr-FR', gender: 'female', espeakName: 'fr+f3' },
  { id: 'es', name: 'Spanish (Spain)', language: 'es-ES', gender: 'male', espeakName: 'es' },
  { id: 'es-f', name: 'Spanish (Spain), female', language: 'es-ES', gender: 'female', espeakName: 'es+f3' },
  { id: 'es-419', name: 'Spanish (Latin America)', language: 'es-419', gender: 'male', espeakName: 'es-419' },
  { id: 'it', name: 'Italian', language: 'it-IT', gender: 'male', espeakName: 'it' },
  { id: 'pt-br', name: 'Portuguese (Brazil)', language: 'pt-BR', gender: 'male', espeakName: 'pt-br' },
  { id: 'pt-br-f', name: 'Portuguese (Brazil), female', language: 'pt-BR', gender: 'female', espeakName: 'pt-br+f3' },
  { id: 'pt-pt', name: 'Portuguese (Portugal)', language: 'pt-PT', gender: 'male', espeakName: 'pt' },
  { id: 'nl', name: 'Dutch', language: 'nl-NL', gender: 'male', espeakName: 'nl' },
  { id: 'sv', name: 'Swedish', language: 'sv-SE', gender: 'male', espeakName: 'sv' },
  { id: 'pl', name: 'Polish', language: 'pl-PL', gender: 'male', espeakName: 'pl' },
  { id: 'ru', name: 'Russian', language: 'ru-RU', gender: 'male', espeakName: 'ru' },
  { id: 'tr', name: 'Turkish', language: 'tr-TR', gender: 'male', espeakName: 'tr' },
  { id: 'ar', name: 'Arabic', language: 'ar', gender: 'male', espeakName: 'ar' },
  { id: 'hi', name: 'Hindi', language: 'hi-IN', gender: 'male', espeakName: 'hi' },
  { id: 'zh', name: 'Chinese (Mandarin)', language: 'zh-CN', gender: 'male', espeakName: 'cmn' },
  { id: 'ja', name: 'Japanese', language: 'ja-JP', gender: 'male', espeakName: 'ja' },
  { id: 'ko', name: 'Korean', language: 'ko-KR', gender: 'male', espeakName: 'ko' },
];

const VOICES_BY_ID = new Map(CURATED_VOICES.map((voice) => [voice.id, voice]));

export function listVoices(): LocalVoice[] {
  return CURATED_VOICES.map(({ id, name, language, gender }) => ({ id, name, language, gender }));
}

export function findVoice(id: string): CuratedVoice | undefined {
  return VOICES_BY_ID.get(id);
}

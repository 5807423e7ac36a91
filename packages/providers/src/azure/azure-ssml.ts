// Builds the SSML document Azure's REST endpoint takes, from the router's plain text. Every value is escaped
// for its place (element text or a double-quoted attribute) and characters XML 1.0 forbids are removed, so no
// input can close the <voice> element, add markup or make the document ill-formed.

import { InvalidSpeechRequestError, quoteName } from '../errors.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * Characters outside XML 1.0's `Char` production: C0 controls other than tab, LF and CR, U+FFFE/U+FFFF and
 * unpaired surrogates. A parser refuses a document that holds one, even as a character reference.
 */
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text or attribute value made safe for XML 1.0: forbidden characters dropped, markup characters escaped. */
export function escapeXml(value: string): string {
  return value.replace(XML_FORBIDDEN, '').replace(/[&<>"']/g, (character) => ENTITIES[character]!);
}

/**
 * Voice names as Azure spells them: short names (`en-US-AvaMultilingualNeural`, `zh-CN-shaanxi-XiaoniNeural`)
 * and long names (`Microsoft Server Speech Text to Speech Voice (en-US, AvaNeural)`). Anything else is refused
 * before a request is sent; the name is escaped as an attribute all the same.
 */
const VOICE_NAME = /^[A-Za-z0-9][A-Za-z0-9 ,._:()-]{0,199}$/;
/** A BCP 47 language tag, loosely: what xml:lang may hold. */
export const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

export function checkAzureVoiceName(voice: string): void {
  if (!VOICE_NAME.test(voice)) throw new InvalidSpeechRequestError(`voice ${quoteName(voice)} is not an Azure voice name`);
}

/** The locale a short name starts with (`en-US-AvaNeural` → `en-US`), or en-US when it has none. */
export function localeOfVoice(voice: string): string {
  const prefix = voice.slice(0, Math.max(0, voice.lastIndexOf('-')));
  return LANGUAGE_TAG.test(prefix) && prefix.includes('-') ? prefix : 'en-US';
}

/** `<prosody rate>` as a relative change: 1.2 → `+20%`, 0.75 → `-25%`. */
export function prosodyRate(speed: number): string {
  const percent = Math.round((speed - 1) * 100);
  return `${percent >= 0 ? '+' : ''}${percent}%`;
}

export interface SsmlInput {
  text: string;
  voice: string;
  language: string;
  /** Relative rate from prosodyRate(); absent: the voice's own rate. */
  rate?: string;
}

export function buildAzureSsml({ text, voice, language, rate }: SsmlInput): string {
  checkAzureVoiceName(voice);
  if (!LANGUAGE_TAG.test(language)) throw new InvalidSpeechRequestError(`language ${quoteName(language)} is not a BCP 47 tag`);
  const content = rate === undefined ? escapeXml(text) : `<prosody rate="${escapeXml(rate)}">${escapeXml(text)}</prosody>`;
  return (
    `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="${escapeXml(language)}">` +
    `<voice name="${escapeXml(voice)}">${content}</voice></speak>`
  );
}

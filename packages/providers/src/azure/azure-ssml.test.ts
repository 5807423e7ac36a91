// The SSML is built safely: whatever the text or voice, the document parses with exactly one <voice> whose
// text is the client's text, literally.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import { buildAzureSsml, escapeXml, localeOfVoice, prosodyRate } from './azure-ssml.js';
import { elementsNamed, parseXml, textOf } from './azure-ssml-reader.js';

const build = (text: string, voice = 'en-US-JennyNeural') => buildAzureSsml({ text, voice, language: 'en-US' });

describe('escapeXml', () => {
  it('escapes the five markup characters', () => {
    expect(escapeXml(`a & b < c > d " e ' f`)).toBe('a &amp; b &lt; c &gt; d &quot; e &apos; f');
  });

  it('does not double-escape or interpret entities in the input', () => {
    expect(escapeXml('&amp; &#60; &lt;')).toBe('&amp;amp; &amp;#60; &amp;lt;');
  });

  it('drops characters XML 1.0 forbids and keeps tab, newline, carriage return and astral characters', () => {
    expect(escapeXml('a\u0000b\u0001c\u0008d\u000Be\u000Cf\u001Fg\uFFFEh\uFFFF')).toBe('abcdefgh');
    expect(escapeXml('x\ty\nz\r!')).toBe('x\ty\nz\r!');
    expect(escapeXml('lone \uD800 high, lone \uDC00 low, pair 😀')).toBe('lone  high, lone  low, pair 😀');
  });
});

describe('buildAzureSsml', () => {
  const injections = [
    '</voice><voice name="x">',
    `</voice></speak><speak version="1.0"><voice name='en-US-GuyNeural'>owned`,
    '<![CDATA[ <voice name="x"> ]]>',
    '<!-- comment --><?pi?>',
    '<!DOCTYPE speak [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>&xxe;',
    '&amp;&lt;&#x3C;',
    '"\' onload="x',
  ];

  it.each(injections)('keeps %j as literal text inside the one <voice>', (text) => {
    const root = parseXml(build(text));
    expect(root.name).toBe('speak');
    const voices = elementsNamed(root, 'voice');
    expect(voices).toHaveLength(1);
    expect(voices[0]!.attributes).toEqual({ name: 'en-US-JennyNeural' });
    expect(voices[0]!.children).toEqual([text]);
    expect(textOf(root)).toBe(text);
  });

  it('parses with control characters removed from the text', () => {
    const root = parseXml(build('bell\u0007 null\u0000 escape\u001B end'));
    expect(textOf(root)).toBe('bell null escape end');
  });

  it('writes the speak root with version, namespace and xml:lang', () => {
    expect(parseXml(build('Hi')).attributes).toEqual({ version: '1.0', xmlns: 'http://www.w3.org/2001/10/synthesis', 'xml:lang': 'en-US' });
  });

  it('wraps the text in <prosody rate> when a rate is given', () => {
    const root = parseXml(buildAzureSsml({ text: 'a < b', voice: 'en-US-GuyNeural', language: 'en-US', rate: prosodyRate(1.5) }));
    const [prosody] = elementsNamed(root, 'prosody');
    expect(prosody!.attributes).toEqual({ rate: '+50%' });
    expect(prosody!.children).toEqual(['a < b']);
  });

  it.each(['x" xml:lang="de', "x' name='y", 'a<b', 'a&b', '', ' leading', 'a/b', '../x', 'ünïcødé-声音', 'a\u0000b'])(
    'refuses the voice name %j before building anything',
    (voice) => {
      expect(() => build('Hi', voice)).toThrow(InvalidSpeechRequestError);
    },
  );

  it('accepts long voice names and escapes them as an attribute', () => {
    const voice = 'Microsoft Server Speech Text to Speech Voice (en-US, JennyNeural)';
    expect(elementsNamed(parseXml(build('Hi', voice)), 'voice')[0]!.attributes.name).toBe(voice);
  });

  it('refuses a language that is not a BCP 47 tag', () => {
    expect(() => buildAzureSsml({ text: 'Hi', voice: 'en-US-JennyNeural', language: 'en" x="1' })).toThrow(InvalidSpeechRequestError);
  });
});

describe('localeOfVoice and prosodyRate', () => {
  it.each([
    ['en-US-JennyNeural', 'en-US'],
    ['zh-CN-shaanxi-XiaoniNeural', 'zh-CN-shaanxi'],
    ['sr-Latn-RS-NicholasNeural', 'sr-Latn-RS'],
    ['Microsoft Server Speech Text to Speech Voice (en-US, JennyNeural)', 'en-US'],
    ['custom', 'en-US'],
  ])('%s → %s', (voice, locale) => {
    expect(localeOfVoice(voice)).toBe(locale);
  });

  it.each([[1, '+0%'], [1.2, '+20%'], [0.5, '-50%'], [2, '+100%'], [0.756, '-24%']])('rate for %d is %s', (speed, rate) => {
    expect(prosodyRate(speed)).toBe(rate);
  });
});

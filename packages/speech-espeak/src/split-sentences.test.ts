import { describe, expect, it } from 'vitest';
import { splitSentences } from './split-sentences.js';

const split = (text: string) => [...splitSentences(text)];

describe('splitSentences', () => {
  it('splits after terminators followed by space, keeping closing quotes, dropping blanks', () => {
    expect(split('  Hello there!  He said "Stop." Then left?  Fine...\n\n')).toEqual([
      'Hello there!',
      'He said "Stop."',
      'Then left?',
      'Fine...',
    ]);
  });

  it('keeps decimal numbers and dotted names whole', () => {
    expect(split('Pi is 3.14 and the file is index.ts today. Next.')).toEqual([
      'Pi is 3.14 and the file is index.ts today.',
      'Next.',
    ]);
  });

  it('ends a sentence at a line break and handles CJK and Devanagari stops without spaces', () => {
    expect(split('Title\nBody text')).toEqual(['Title', 'Body text']);
    expect(split('你好。今天天气很好！')).toEqual(['你好。', '今天天气很好！']);
    expect(split('नमस्ते दुनिया। आज मौसम अच्छा है।')).toEqual(['नमस्ते दुनिया।', 'आज मौसम अच्छा है।']);
  });

  it('returns nothing for blank text and the whole text when it has no terminator', () => {
    expect(split(' \n\t ')).toEqual([]);
    expect(split('no punctuation at all')).toEqual(['no punctuation at all']);
  });

  it('stays fast on very long input', () => {
    const text = 'This is one sentence of a very long text. '.repeat(20_000);
    const start = performance.now();
    expect(split(text)).toHaveLength(20_000);
    expect(performance.now() - start).toBeLessThan(2_000);
  });
});

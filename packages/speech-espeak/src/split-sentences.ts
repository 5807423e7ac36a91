// Splits request text into sentences so the first can be voiced and sent while the rest waits.

// Not Intl.Segmenter: V8 copies the whole input into every segment it returns, so a long text costs
// quadratic time and memory (a 450 KB input took seconds, and keeping the segments exhausted a 4 GB
// heap). This pattern is linear: Western terminators count only before whitespace (so "3.14" stays
// whole), CJK, Devanagari and Arabic ones always, and a line break always ends a sentence.
const SENTENCE_END = /[.!?…]+["'”’»)\]]*(?=\s|$)|[。！？｡।॥؟]+["'”’」』）)\]]*|\n/gu;

/** Yields trimmed, non-empty sentences lazily, so synthesis can start before the whole text is split. */
export function* splitSentences(text: string): Generator<string> {
  let start = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    const end = match.index + match[0].length;
    const sentence = text.slice(start, end).trim();
    if (sentence.length > 0) yield sentence;
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest.length > 0) yield rest;
}

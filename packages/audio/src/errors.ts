// The one error the pipeline throws: the upstream's bytes are not what its description promised.
// Its message names the problem in our words only; no upstream text is ever copied into it.

export class AudioFormatError extends Error {
  override readonly name = 'AudioFormatError';
}

// Streaming linear-interpolation resampler for mono s16 audio (eSpeak's 22,050 Hz to 24,000 Hz).

function greatestCommonDivisor(a: number, b: number): number {
  return b === 0 ? a : greatestCommonDivisor(b, a % b);
}

/**
 * Keeps its position and the previous block's last sample, so feeding a stream in blocks gives the
 * same samples as feeding it whole: no clicks at block boundaries.
 */
export class LinearResampler {
  // Positions are integers in units of 1/denominator of an input sample, so long streams never drift.
  readonly #step: number;
  readonly #denominator: number;
  /** Position of the next output sample relative to the start of the next block; in [-denominator, 0]. */
  #position = 0;
  #previousSample = 0;

  constructor(inputRate: number, outputRate: number) {
    const divisor = greatestCommonDivisor(inputRate, outputRate);
    this.#step = inputRate / divisor;
    this.#denominator = outputRate / divisor;
  }

  process(input: Int16Array): Int16Array {
    const length = input.length;
    if (length === 0) return new Int16Array(0);
    const step = this.#step;
    const denominator = this.#denominator;
    // An output sample needs the input sample to its right, so stop before the block's last one.
    const limit = (length - 1) * denominator;
    const count = Math.max(0, Math.ceil((limit - this.#position) / step));
    const output = new Int16Array(count);
    let position = this.#position;
    for (let index = 0; index < count; index++) {
      const left = Math.floor(position / denominator);
      const fraction = position - left * denominator;
      const leftSample = left < 0 ? this.#previousSample : input[left]!;
      const rightSample = input[left + 1]!;
      output[index] = Math.round((leftSample * (denominator - fraction) + rightSample * fraction) / denominator);
      position += step;
    }
    this.#position = position - length * denominator;
    this.#previousSample = input[length - 1]!;
    return output;
  }
}

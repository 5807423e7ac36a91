// A waiting indicator on stderr: an animated line with the time left on a terminal, one dot per
// poll otherwise (so logs of a script stay readable).
import type { OutputStream } from './cli-io.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Progress {
  /** One poll happened. */
  tick(): void;
  stop(): void;
}

function remaining(deadline: number): string {
  const seconds = Math.max(0, Math.round((deadline - Date.now()) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export function startProgress(stream: OutputStream, label: string, deadline: number): Progress {
  if (!stream.isTTY) {
    stream.write(label);
    return {
      tick: () => stream.write('.'),
      stop: () => stream.write('\n'),
    };
  }
  let frame = 0;
  const draw = () => stream.write(`\r\x1b[K${FRAMES[frame++ % FRAMES.length]} ${label} (code expires in ${remaining(deadline)})`);
  draw();
  const timer = setInterval(draw, 120);
  // The animation must never keep the process alive on its own.
  timer.unref();
  return {
    tick: () => undefined,
    stop() {
      clearInterval(timer);
      stream.write('\r\x1b[K');
    },
  };
}

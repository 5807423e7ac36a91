// V8's own collector for tests that check what stays reachable, without starting the test process with
// --expose-gc (vitest's workers are started for us).
import v8 from 'node:v8';
import vm from 'node:vm';

/** A function that runs a full garbage collection. */
export function collectGarbage(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/**
 * Whether what `ref` points to can be collected: up to `rounds` full collections, each after a turn of
 * the event loop (so that promise reactions and timers that let go of it have run).
 */
export async function isCollected(ref: WeakRef<object>, rounds = 3): Promise<boolean> {
  const gc = collectGarbage();
  for (let round = 0; round < rounds && ref.deref() !== undefined; round++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return ref.deref() === undefined;
}

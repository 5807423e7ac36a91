// Keeps the logs of every service a test run starts, for the secret scan at the end of `npm test`
// (scripts/test.mjs sets VR_TEST_LOG_DIR to one fresh folder per run). Command output that is meant
// to show a secret (the admin CLI printing a new pk_ key) is not a log and is not captured.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const LOG_DIRECTORY_VARIABLE = 'VR_TEST_LOG_DIR';

/** Where this run's service logs go, or undefined outside `npm test` (nothing is written then). */
export function testLogDirectory(): string | undefined {
  return process.env[LOG_DIRECTORY_VARIABLE] || undefined;
}

/** Appends everything `child` writes (stdout and stderr) to `<name>-<pid>.log` in the run's log folder. */
export function captureLogs(name: string, child: ChildProcess): void {
  const directory = testLogDirectory();
  if (!directory) return;
  fs.mkdirSync(directory, { recursive: true });
  const file = path.join(directory, `${name.replace(/[^A-Za-z0-9_.-]/g, '_')}-${child.pid ?? 'unknown'}.log`);
  const output = fs.createWriteStream(file, { flags: 'a' });
  let open = 2;
  const done = () => {
    open -= 1;
    if (open === 0) output.end();
  };
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) {
      done();
      continue;
    }
    stream.on('data', (chunk: Buffer) => output.write(chunk));
    stream.once('close', done);
  }
}

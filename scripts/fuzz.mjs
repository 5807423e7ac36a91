// `npm run fuzz [-- --quick | --runs N | --seed S]`: install and build if needed, then run the
// property-based fuzz (fuzz/src/main.ts) against a real embedded service on loopback.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureReady, root } from './bootstrap.mjs';

try {
  ensureReady();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
const child = spawn(process.execPath, [path.join(root, 'fuzz/dist/main.js'), ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

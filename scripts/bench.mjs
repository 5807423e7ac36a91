// `npm run bench [-- --quick]`: install and build if needed, then run the benchmark suite
// (bench/src/main.ts) with the given arguments. Results land in bench/results/.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureReady, root } from './bootstrap.mjs';

try {
  ensureReady();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
const child = spawn(process.execPath, [path.join(root, 'bench/dist/main.js'), ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

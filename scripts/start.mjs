// `npm start`: install and build if needed, then run the embedded all-in-one service.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureReady, root } from './bootstrap.mjs';

try {
  ensureReady();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
// The file alone, not the ledger package: this parent process stays up beside the service.
const { pgliteProcessNodeFlags, withPgliteProcessEnvironment } = await import(pathToFileURL(path.join(root, 'packages/ledger/dist/pglite-process-environment.js')).href);
const child = spawn(process.execPath, [...pgliteProcessNodeFlags(process.env), path.join(root, 'apps/embedded/dist/main.js')], {
  stdio: 'inherit', env: withPgliteProcessEnvironment(process.env),
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

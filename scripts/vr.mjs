// `npm run vr -- <command> …`: the vr CLI from a clone, built if needed (see apps/cli).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureReady, root } from './bootstrap.mjs';

try {
  ensureReady({ quiet: true });
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
const child = spawn(process.execPath, [path.join(root, 'apps/cli/dist/main.js'), ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 1));

// `npm run admin -- <command> …`: operator commands (see apps/admin).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureReady, root } from './bootstrap.mjs';

try {
  ensureReady({ quiet: true });
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
const child = spawn(process.execPath, [path.join(root, 'apps/admin/dist/main.js'), ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 1));

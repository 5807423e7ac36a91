// Preloaded into a test's embedded process (`--import`): records which of the libraries that only some
// configurations need the process has loaded, into $LIBRARY_RECORD_FILE. ES imports are recorded as they
// resolve (library-recorder-hooks.mjs); CommonJS loads are read from require.cache on SIGUSR2, after
// which the line `checked` marks the record complete.
import fs from 'node:fs';
import { createRequire, register } from 'node:module';

const LIBRARIES = ['ioredis', 'bullmq', 'stripe'];
const file = process.env.LIBRARY_RECORD_FILE;
if (!file) throw new Error('LIBRARY_RECORD_FILE is not set');
register('./library-recorder-hooks.mjs', import.meta.url, { data: { file, libraries: LIBRARIES } });

const require = createRequire(import.meta.url);
process.on('SIGUSR2', () => {
  const pattern = new RegExp(`/node_modules/(${LIBRARIES.join('|')})/`);
  const loaded = new Set(Object.keys(require.cache).flatMap((path) => pattern.exec(path)?.[1] ?? []));
  fs.appendFileSync(file, `${[...loaded].map((name) => `require ${name}\n`).join('')}checked\n`);
});

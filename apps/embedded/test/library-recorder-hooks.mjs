// Module hooks for library-recorder.mjs (they run on Node's loader thread): every ES import of a
// recorded library is appended to the record file.
import fs from 'node:fs';

let record;
let pattern;

export function initialize(data) {
  record = data.file;
  pattern = new RegExp(`/node_modules/(${data.libraries.join('|')})/`);
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const match = pattern.exec(resolved.url);
  if (match) fs.appendFileSync(record, `import ${match[1]}\n`);
  return resolved;
}

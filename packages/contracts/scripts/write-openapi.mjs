// Regenerates the committed OpenAPI document and the client types derived from it.
// Run after a build: `node scripts/write-openapi.mjs` (a test fails when these files are stale).
import fs from 'node:fs';
import { renderOpenApiFiles } from './render-openapi.mjs';

const files = await renderOpenApiFiles();
for (const [path, text] of Object.entries(files)) fs.writeFileSync(new URL(`../${path}`, import.meta.url), text);
console.log(`wrote ${Object.keys(files).join(', ')}`);

// Renders openapi/openapi.json and openapi/openapi-types.ts (the generated client types) in memory.
import openapiTS, { astToString } from 'openapi-typescript';

export async function renderOpenApiFiles(buildDocument) {
  const build = buildDocument ?? (await import('../dist/index.js')).buildOpenApiDocument;
  const document = build();
  const types = astToString(await openapiTS(document));
  return {
    'openapi/openapi.json': JSON.stringify(document, null, 2) + '\n',
    'openapi/openapi-types.ts': '// Generated from openapi.json by scripts/write-openapi.mjs. Do not edit.\n' + types,
  };
}

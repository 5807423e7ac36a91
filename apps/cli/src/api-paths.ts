// The API's paths as the generated OpenAPI client types describe them.
export type { paths as ApiPaths, components } from '@voice-router/contracts/openapi-types';

// @voice-router/embedded: the all-in-one process behind `npm start`.
export { startEmbeddedService, type EmbeddedService } from './embedded-service.js';
export { embeddedEnvironmentSchema, type EmbeddedEnvironment } from './environment.js';

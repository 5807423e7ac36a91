// @voice-router/admin: operator commands, and the loopback endpoint the embedded service exposes for them.
export { runAdminCommand, AdminCommandSchema, AdminCommandError, type AdminCommand, type AdminServices } from './commands.js';
export { startAdminEndpoint, adminFilePath, type AdminEndpointFile } from './admin-server.js';

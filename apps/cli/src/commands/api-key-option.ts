// The --api-key flag shared by the commands that accept a pk_ key.
import type { ParseArgsOptions } from '../command.js';

export const API_KEY_OPTION = { 'api-key': { type: 'string' } } as const satisfies ParseArgsOptions;
export const API_KEY_HELP = '--api-key KEY          use this pk_ key (default: VR_API_KEY, then the login session, then the saved key)';

// Every command, in the order `vr --help` lists them.
import type { Command } from '../command.js';
import { activityCommand } from './activity.js';
import { billingMethodsCommand } from './billing-methods.js';
import { billingTopUpCommand } from './billing-topup.js';
import { creditsCommand } from './credits.js';
import { keysCreateCommand } from './keys-create.js';
import { keysListCommand } from './keys-list.js';
import { keysRevokeCommand } from './keys-revoke.js';
import { keysUpdateCommand } from './keys-update.js';
import { loginCommand } from './login.js';
import { logoutCommand } from './logout.js';
import { providersCommand } from './providers.js';
import { sessionsListCommand } from './sessions-list.js';
import { sessionsRevokeCommand } from './sessions-revoke.js';
import { sayCommand } from './say.js';
import { statusCommand } from './status.js';
import { usageCommand } from './usage.js';
import { voicesCommand } from './voices.js';
import { whoamiCommand } from './whoami.js';

export const COMMANDS: Command[] = [
  loginCommand,
  logoutCommand,
  whoamiCommand,
  sessionsListCommand,
  sessionsRevokeCommand,
  keysListCommand,
  keysCreateCommand,
  keysUpdateCommand,
  keysRevokeCommand,
  creditsCommand,
  activityCommand,
  billingMethodsCommand,
  billingTopUpCommand,
  usageCommand,
  voicesCommand,
  providersCommand,
  statusCommand,
  sayCommand,
];

// `vr logout`: revokes the session on the server and forgets it locally, in that order, and forgets
// it even when the server cannot be reached (the token then simply expires).
import type { Command } from '../command.js';
import { ApiError, CliError } from '../cli-errors.js';
import { expectData } from '../context.js';
import { describeFailure } from '../error-messages.js';

export const logoutCommand: Command = {
  name: 'logout',
  summary: 'Revoke the login session and remove it locally',
  synopsis: 'logout',
  options: {},
  async run(context) {
    if (!context.settings.sessionToken) {
      context.print('Not logged in.');
      return;
    }
    let failure: unknown;
    let revoked = false;
    try {
      const { client, tokenKind } = context.api('session');
      revoked = (await expectData(client.POST('/v1/auth/logout'), tokenKind)).revoked;
    } catch (error) {
      // A 401 means the server no longer honours the token anyway.
      if (!(error instanceof ApiError && error.status === 401)) failure = error;
    }
    context.saveConfig({ sessionToken: undefined, sessionExpiresAt: undefined, userId: undefined });
    if (failure) {
      const { message } = describeFailure(failure, context.settings.baseUrl);
      throw new CliError(`Removed the token locally, but the server did not revoke it: ${message}`);
    }
    context.print(revoked ? 'Logged out: the session is revoked.' : 'Logged out (the session had already ended).');
  },
};

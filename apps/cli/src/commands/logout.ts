// `vr logout`: revokes the session on the server and forgets it locally, in that order, and forgets
// it even when the server cannot be reached (the token then simply expires). `--all` logs out
// everywhere: every console and CLI session of the user.
import type { Command } from '../command.js';
import { ApiError, CliError } from '../cli-errors.js';
import { expectData } from '../context.js';
import { describeFailure } from '../error-messages.js';

export const logoutCommand: Command = {
  name: 'logout',
  summary: 'Revoke the login session and remove it locally',
  synopsis: 'logout [--all]',
  help: ['--all                  log out everywhere: end every session of yours, browsers and other machines too'],
  options: { all: { type: 'boolean' } },
  async run(context, { values }) {
    if (!context.settings.sessionToken) {
      context.print('Not logged in.');
      return;
    }
    let failure: unknown;
    let revoked = false;
    let revokedCount: number | undefined;
    try {
      const { client, tokenKind } = context.api('session');
      if (values.all) {
        revokedCount = (await expectData(client.POST('/v1/auth/logout-all'), tokenKind)).revoked_count;
        revoked = revokedCount > 0;
      } else {
        revoked = (await expectData(client.POST('/v1/auth/logout'), tokenKind)).revoked;
      }
    } catch (error) {
      // A 401 means the server no longer honours the token anyway.
      if (!(error instanceof ApiError && error.status === 401)) failure = error;
    }
    context.saveConfig({ sessionToken: undefined, sessionExpiresAt: undefined, userId: undefined });
    if (failure) {
      const { message } = describeFailure(failure, context.settings.baseUrl);
      throw new CliError(`Removed the token locally, but the server did not revoke it: ${message}`);
    }
    if (revokedCount !== undefined) {
      context.print(`Logged out everywhere: ${revokedCount} session${revokedCount === 1 ? '' : 's'} ended.`);
      return;
    }
    context.print(revoked ? 'Logged out: the session is revoked.' : 'Logged out (the session had already ended).');
  },
};

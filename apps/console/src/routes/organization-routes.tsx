// Switching the current account, creating organizations, inviting members and accepting
// invitations. The switch only stores an account id in a cookie; every request re-checks it.
import express, { type Request, type Response } from 'express';
import type { ConsoleInvitation } from '../console-services.js';
import { accountCookie, setCookie } from '../http/cookies.js';
import { field } from '../http/form.js';
import { baseUrlOf, requireSignedIn, sessionOf, signedIn } from '../http/request-context.js';
import { sendPage } from '../http/render.js';
import { MessagePage } from '../pages/message-page.js';
import { InvitationPage } from '../pages/invitation-page.js';
import { OrganizationsPage, type OrganizationsPageProps } from '../pages/organizations-page.js';
import { isFailure, noticeText, statusFor, viewerOf, type RouteDependencies } from './route-support.js';

const tokenPattern = /^[A-Za-z0-9_-]{1,200}$/;
type Extra = Omit<OrganizationsPageProps, 'viewer' | 'accounts' | 'members' | 'invitations'>;

export function organizationRoutes({ services, cookieSecure }: RouteDependencies): express.Router {
  const router = express.Router();
  router.use(['/organizations', '/accounts'], requireSignedIn(services));

  async function render(request: Request, response: Response, extra: Extra, status = 200): Promise<void> {
    const { session, account, accounts } = signedIn(response);
    let members: OrganizationsPageProps['members'];
    let invitations: ConsoleInvitation[] | undefined;
    if (account.kind === 'organization') {
      const scope = { userId: session.userId, accountId: account.accountId };
      const memberList = await services.listMembers(scope);
      members = isFailure(memberList) ? undefined : memberList;
      const invitationList = await services.listInvitations({ ...scope, baseUrl: baseUrlOf(request) });
      invitations = isFailure(invitationList) ? undefined : invitationList;
    }
    sendPage(response, <OrganizationsPage viewer={viewerOf(response)} accounts={accounts} members={members} invitations={invitations} {...extra} />, status);
  }

  router.get('/organizations', async (request, response) => {
    await render(request, response, { notice: noticeText(request.query.notice) });
  });

  router.post('/accounts/switch', (request, response) => {
    const wanted = field(request, 'account_id', 200);
    const target = signedIn(response).accounts.find((account) => account.accountId === wanted);
    if (!target) return render(request, response, { error: 'That account does not exist or you are not a member of it.' }, 404);
    setCookie(request, response, cookieSecure, accountCookie, target.accountId);
    response.redirect(303, '/console/organizations?notice=account-switched');
  });

  router.post('/organizations', async (request, response) => {
    const name = field(request, 'name', 200).trim();
    const result = await services.createOrganization({ userId: signedIn(response).session.userId, name });
    if (!result.ok) return render(request, response, { organizationName: name, error: result.message }, statusFor(result));
    setCookie(request, response, cookieSecure, accountCookie, result.account.accountId);
    response.redirect(303, '/console/organizations?notice=organization-created');
  });

  router.post('/organizations/invitations', async (request, response) => {
    const { session, account } = signedIn(response);
    const email = field(request, 'email', 320).trim();
    if (account.kind !== 'organization') return render(request, response, { error: 'Switch to an organization to invite members.' }, 400);
    const result = await services.invite({ userId: session.userId, accountId: account.accountId, email, baseUrl: baseUrlOf(request) });
    if (!result.ok) return render(request, response, { inviteEmail: email, error: result.message }, statusFor(result));
    await render(request, response, { newInvitation: result.invitation });
  });

  router.post('/organizations/members/:userId/remove', async (request, response) => {
    const { session, account } = signedIn(response);
    const result = await services.removeMember({ userId: session.userId, accountId: account.accountId, memberUserId: String(request.params.userId) });
    if (!result.ok) return render(request, response, { error: result.message }, statusFor(result));
    response.redirect(303, '/console/organizations?notice=member-removed');
  });

  router.get('/invitations/:token', async (request, response) => {
    const token = String(request.params.token);
    if (!tokenPattern.test(token)) return sendPage(response, <MessagePage title="Invitation not found" message="This invitation link is not valid." />, 404);
    if (!sessionOf(response)) return sendPage(response, <InvitationPage token={token} />);
    return requireSignedIn(services)(request, response, () => {
      sendPage(response, <InvitationPage token={token} viewer={viewerOf(response)} />);
    });
  });

  router.post('/invitations/:token', requireSignedIn(services), async (request, response) => {
    const token = String(request.params.token);
    const viewer = viewerOf(response);
    if (!tokenPattern.test(token)) return sendPage(response, <MessagePage title="Invitation not found" message="This invitation link is not valid." viewer={viewer} />, 404);
    const result = await services.acceptInvitation({ userId: signedIn(response).session.userId, token });
    if (!result.ok) return sendPage(response, <InvitationPage token={token} viewer={viewer} error={result.message} />, statusFor(result));
    setCookie(request, response, cookieSecure, accountCookie, result.account.accountId);
    response.redirect(303, '/console/organizations?notice=invitation-accepted');
  });

  return router;
}

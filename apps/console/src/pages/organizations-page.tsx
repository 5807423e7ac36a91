// Accounts the user can act for (with "Switch"), creating an organization, and for a selected
// organization its members, the invite form (showing the link to hand over) and its invitations.
import type { ConsoleAccount, ConsoleInvitation, ConsoleMember } from '../console-services.js';
import { Layout, type Viewer } from './layout.js';
import { CopyableValue, CsrfField, Field, Notice, formatDate } from './components.js';

export interface OrganizationsPageProps {
  viewer: Viewer;
  accounts: ConsoleAccount[];
  members?: ConsoleMember[];
  invitations?: ConsoleInvitation[];
  newInvitation?: ConsoleInvitation;
  organizationName?: string;
  inviteEmail?: string;
  error?: string;
  notice?: string;
}

function AccountList({ viewer, accounts }: { viewer: Viewer; accounts: ConsoleAccount[] }) {
  return (
    <table>
      <thead><tr><th>Account</th><th>Kind</th><th>Role</th><th><span class="muted">Actions</span></th></tr></thead>
      <tbody>
        {accounts.map((account) => (
          <tr>
            <td>{account.name}</td>
            <td>{account.kind === 'personal' ? 'Personal' : 'Organization'}</td>
            <td>{account.role === 'owner' ? 'Owner' : 'Member'}</td>
            <td>
              {account.accountId === viewer.account.accountId ? (
                <span class="badge current">Current</span>
              ) : (
                <form method="post" action="/console/accounts/switch" class="inline">
                  <CsrfField token={viewer.csrfToken} />
                  <input type="hidden" name="account_id" value={account.accountId} />
                  <button type="submit" class="secondary small">Switch</button>
                </form>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function MemberList({ viewer, members }: { viewer: Viewer; members: ConsoleMember[] }) {
  // Only owners manage members; a member sees the list without actions.
  const owner = viewer.account.role === 'owner';
  return (
    <table>
      <thead><tr><th>Email</th><th>Role</th>{owner ? <th><span class="muted">Actions</span></th> : null}</tr></thead>
      <tbody>
        {members.map((member) => (
          <tr>
            <td>{member.email}</td>
            <td>{member.role === 'owner' ? 'Owner' : 'Member'}</td>
            {owner ? (
              <td>
                {member.role === 'member' ? (
                  <form method="post" action={`/console/organizations/members/${encodeURIComponent(member.userId)}/remove`} class="inline">
                    <CsrfField token={viewer.csrfToken} />
                    <button type="submit" class="danger small">Remove</button>
                  </form>
                ) : <span class="muted small">—</span>}
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function InviteForm(props: OrganizationsPageProps) {
  const { viewer } = props;
  return (
    <section class="card" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite a member</h2>
      {props.newInvitation ? (
        <>
          <Notice kind="success">Invitation created for {props.newInvitation.email}. Send them this link; no email is sent.</Notice>
          <CopyableValue id="invitation-link" label="Invitation link" value={props.newInvitation.link} />
        </>
      ) : null}
      <form method="post" action="/console/organizations/invitations">
        <CsrfField token={viewer.csrfToken} />
        <Field id="invite_email" name="email" label="Email" type="email" value={props.inviteEmail} required autocomplete="off" />
        <button type="submit">Invite</button>
      </form>
    </section>
  );
}

function OrganizationDetails(props: OrganizationsPageProps) {
  const { viewer } = props;
  const owner = viewer.account.role === 'owner';
  return (
    <>
      <section class="card" aria-labelledby="members-heading">
        <h2 id="members-heading">Members of {viewer.account.name}</h2>
        {props.members ? <MemberList viewer={viewer} members={props.members} /> : <p class="muted">You cannot see the members of this organization.</p>}
        {owner ? null : <p class="muted small">Only owners invite and remove members.</p>}
      </section>
      {owner ? <InviteForm {...props} /> : null}
      {owner && props.invitations && props.invitations.length > 0 ? (
        <section class="card" aria-labelledby="invitations-heading">
          <h2 id="invitations-heading">Invitations</h2>
          <div class="table-scroll">
            <table>
              <thead><tr><th>Email</th><th>Sent</th><th>Status</th><th>Link</th></tr></thead>
              <tbody>
                {props.invitations.map((invitation) => (
                  <tr>
                    <td>{invitation.email}</td>
                    <td class="small nowrap">{formatDate(invitation.createdAt)}</td>
                    <td>{invitation.acceptedAt ? `Accepted ${formatDate(invitation.acceptedAt)}` : 'Pending'}</td>
                    <td class="small">{invitation.acceptedAt ? '—' : <code>{invitation.link}</code>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
    </>
  );
}

export function OrganizationsPage(props: OrganizationsPageProps) {
  const { viewer } = props;
  return (
    <Layout title="Organizations" viewer={viewer} section="organizations">
      <h1>Organizations</h1>
      {props.notice ? <Notice kind="success">{props.notice}</Notice> : null}
      {props.error ? <Notice kind="error">{props.error}</Notice> : null}
      <section class="card" aria-labelledby="accounts-heading">
        <h2 id="accounts-heading">Your accounts</h2>
        <p class="muted small">Keys, wallet and usage show the current account. Each account has its own wallet.</p>
        <AccountList viewer={viewer} accounts={props.accounts} />
      </section>
      {viewer.account.kind === 'organization' ? <OrganizationDetails {...props} /> : null}
      <section class="card" aria-labelledby="create-org-heading">
        <h2 id="create-org-heading">Create an organization</h2>
        <form method="post" action="/console/organizations">
          <CsrfField token={viewer.csrfToken} />
          <Field id="organization_name" name="name" label="Organization name" value={props.organizationName} required maxLength={100} />
          <button type="submit">Create organization</button>
        </form>
      </section>
    </Layout>
  );
}

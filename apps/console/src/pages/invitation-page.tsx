// An invitation link: signed-in users accept it; others first log in or sign up and come back.
import { Layout, type Viewer } from './layout.js';
import { CsrfField, Notice } from './components.js';

export function InvitationPage(props: { token: string; viewer?: Viewer; error?: string }) {
  const here = `/console/invitations/${encodeURIComponent(props.token)}`;
  const next = encodeURIComponent(here);
  return (
    <Layout title="Invitation" viewer={props.viewer}>
      <div class="card">
        <h1>You have been invited to an organization</h1>
        {props.error ? <Notice kind="error">{props.error}</Notice> : null}
        {props.viewer ? (
          <>
            <p>Accept to join as <strong>{props.viewer.email}</strong>. The invitation must have been sent to this email address.</p>
            <form method="post" action={here}>
              <CsrfField token={props.viewer.csrfToken} />
              <button type="submit">Accept invitation</button>
            </form>
          </>
        ) : (
          <>
            <p>Log in, or sign up with the email address the invitation was sent to, and you will come back here to accept it.</p>
            <div class="actions">
              <a class="button" href={`/console/login?next=${next}&invitation=${encodeURIComponent(props.token)}`}>Log in</a>
              <a class="button secondary" href={`/console/signup?next=${next}&invitation=${encodeURIComponent(props.token)}`}>Sign up</a>
            </div>
          </>
        )}
      </div>
    </Layout>
  );
}

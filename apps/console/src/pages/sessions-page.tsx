// The user's sessions (this browser, other browsers, `vr` logins) with "Revoke" each and "Log out
// everywhere", and the password change, which ends every other session.
import type { ConsoleSessionSummary } from '../console-services.js';
import { Layout, type Viewer } from './layout.js';
import { CsrfField, Field, Notice, formatDate } from './components.js';

export interface SessionsPageProps {
  viewer: Viewer;
  sessions: ConsoleSessionSummary[];
  notice?: string;
  error?: string;
  passwordError?: string;
}

const kindLabel = { console: 'Console (browser)', cli: 'CLI (vr login)' } as const;

function SessionList({ viewer, sessions }: { viewer: Viewer; sessions: ConsoleSessionSummary[] }) {
  return (
    <div class="table-scroll">
      <table>
        <thead><tr><th>Kind</th><th>Signed in</th><th>Expires</th><th><span class="muted">Actions</span></th></tr></thead>
        <tbody>
          {sessions.map((session) => (
            <tr>
              <td>{kindLabel[session.kind]} {session.current ? <span class="badge current">This browser</span> : null}</td>
              <td class="small nowrap">{formatDate(session.createdAt.toISOString())}</td>
              <td class="small nowrap">{formatDate(session.expiresAt.toISOString())}</td>
              <td>
                <form method="post" action={`/console/sessions/${encodeURIComponent(session.sessionId)}/revoke`} class="inline">
                  <CsrfField token={viewer.csrfToken} />
                  <button type="submit" class="danger small">{session.current ? 'Log out' : 'Revoke'}</button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function SessionsPage(props: SessionsPageProps) {
  const { viewer } = props;
  return (
    <Layout title="Sessions" viewer={viewer} section="sessions">
      <h1>Sessions</h1>
      {props.notice ? <Notice kind="success">{props.notice}</Notice> : null}
      {props.error ? <Notice kind="error">{props.error}</Notice> : null}
      <section class="card" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Where you are signed in</h2>
        <p class="muted small">Console sessions last 7 days, CLI sessions 90 days. Revoking one signs that browser or terminal out at once.</p>
        <SessionList viewer={viewer} sessions={props.sessions} />
        <form method="post" action="/console/sessions/revoke-all">
          <CsrfField token={viewer.csrfToken} />
          <button type="submit" class="danger">Log out everywhere</button>
        </form>
      </section>
      <section class="card" aria-labelledby="password-heading">
        <h2 id="password-heading">Change password</h2>
        <p class="muted small">Every other session ends when the password changes; this one stays signed in.</p>
        {props.passwordError ? <Notice kind="error">{props.passwordError}</Notice> : null}
        <form method="post" action="/console/password">
          <CsrfField token={viewer.csrfToken} />
          <Field id="current_password" label="Current password" type="password" required autocomplete="current-password" />
          <Field id="new_password" label="New password" type="password" required autocomplete="new-password" hint="At least 10 characters." />
          <button type="submit">Change password</button>
        </form>
      </section>
    </Layout>
  );
}

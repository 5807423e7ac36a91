// Sign up and log in. Both carry `next` (where to go afterwards) and the pre-session CSRF token;
// sign-up also carries an invitation token when it came from an invitation link.
import { Layout } from './layout.js';
import { CsrfField, Field, Notice } from './components.js';

export interface AuthFormProps {
  csrfToken: string;
  next: string;
  email?: string;
  error?: string;
  notice?: string;
}

function withNext(path: string, next: string, extra: Record<string, string> = {}): string {
  const parameters = new URLSearchParams({ next, ...extra });
  return `${path}?${parameters.toString()}`;
}

export function LoginPage(props: AuthFormProps & { signupOpen: boolean; invitationToken?: string }) {
  const signupLink = withNext('/console/signup', props.next, props.invitationToken ? { invitation: props.invitationToken } : {});
  return (
    <Layout title="Log in">
      <div class="card">
        <h1>Log in</h1>
        {props.notice ? <Notice kind="success">{props.notice}</Notice> : null}
        {props.error ? <Notice kind="error">{props.error}</Notice> : null}
        <form method="post" action="/console/login">
          <CsrfField token={props.csrfToken} />
          <input type="hidden" name="next" value={props.next} />
          <Field id="email" label="Email" type="email" value={props.email} required autocomplete="username" autofocus={!props.email} />
          <Field id="password" label="Password" type="password" required autocomplete="current-password" autofocus={!!props.email} />
          <button type="submit">Log in</button>
        </form>
      </div>
      {props.signupOpen || props.invitationToken ? (
        <p class="muted small">No account yet? <a href={signupLink}>Sign up</a></p>
      ) : (
        <p class="muted small">Sign-up is by invitation only on this deployment.</p>
      )}
    </Layout>
  );
}

export function SignupPage(props: AuthFormProps & { invitationToken?: string; allowed: boolean }) {
  const loginLink = withNext('/console/login', props.next);
  return (
    <Layout title="Sign up">
      <div class="card">
        <h1>Sign up</h1>
        {props.error ? <Notice kind="error">{props.error}</Notice> : null}
        {props.allowed ? (
          <form method="post" action="/console/signup">
            <CsrfField token={props.csrfToken} />
            <input type="hidden" name="next" value={props.next} />
            {props.invitationToken ? <input type="hidden" name="invitation" value={props.invitationToken} /> : null}
            <Field id="email" label="Email" type="email" value={props.email} required autocomplete="username" autofocus />
            <Field id="password" label="Password" type="password" required autocomplete="new-password" hint="Use a long password; a passphrase of several words is easiest." />
            <button type="submit">Sign up</button>
          </form>
        ) : (
          <Notice kind="warning">Sign-up is by invitation only on this deployment. Ask an organization owner for an invitation link.</Notice>
        )}
      </div>
      <p class="muted small">Already have an account? <a href={loginLink}>Log in</a></p>
    </Layout>
  );
}

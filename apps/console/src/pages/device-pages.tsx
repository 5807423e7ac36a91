// Device approval (the CLI's OAuth device flow): enter or confirm the code, look it up, then
// "Approve" or "Deny", then a result page that says what to do next.
import { Layout, type Viewer } from './layout.js';
import { CsrfField, Field, Notice } from './components.js';

export function DeviceCodePage(props: { viewer: Viewer; userCode: string; error?: string }) {
  return (
    <Layout title="Connect a device" viewer={props.viewer} section="device">
      <div class="card">
        <h1>Connect a device</h1>
        <p class="muted">Enter the code shown in your terminal. Only continue if you started this sign-in yourself.</p>
        {props.error ? <Notice kind="error">{props.error}</Notice> : null}
        <form method="post" action="/console/device">
          <CsrfField token={props.viewer.csrfToken} />
          <Field id="user_code" label="Code" value={props.userCode} required autocomplete="off" maxLength={64} autofocus hint="For example ABCD-EFGH" />
          <button type="submit">Continue</button>
        </form>
      </div>
    </Layout>
  );
}

export function DeviceConfirmPage(props: { viewer: Viewer; userCode: string; expiresAt: Date }) {
  const minutes = Math.max(1, Math.round((props.expiresAt.getTime() - Date.now()) / 60_000));
  return (
    <Layout title="Approve device" viewer={props.viewer} section="device">
      <div class="card">
        <h1>Approve this device?</h1>
        <p>
          A device is asking to act as <strong>{props.viewer.email}</strong>. Check that this code matches the one in your terminal:
        </p>
        <div class="user-code" aria-label="Device code">{props.userCode}</div>
        <p class="muted small">The request expires in about {minutes} minute{minutes === 1 ? '' : 's'}.</p>
        <form method="post" action="/console/device/decide" class="actions">
          <CsrfField token={props.viewer.csrfToken} />
          <input type="hidden" name="user_code" value={props.userCode} />
          <button type="submit" name="decision" value="approve">Approve</button>
          <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
        </form>
      </div>
    </Layout>
  );
}

export function DeviceResultPage(props: { viewer: Viewer; approved: boolean }) {
  return (
    <Layout title={props.approved ? 'Device approved' : 'Request denied'} viewer={props.viewer} section="device">
      <div class="card result">
        {props.approved ? (
          <>
            <h1>Device approved — you can return to your terminal</h1>
            <p class="muted">The device is now signed in as {props.viewer.email}. You can close this tab.</p>
          </>
        ) : (
          <>
            <h1>Request denied</h1>
            <p class="muted">The device was not signed in. If this was you, start again from your terminal.</p>
          </>
        )}
        <p><a href="/console/keys">Go to your keys</a></p>
      </div>
    </Layout>
  );
}

// A plain page for refusals and failures (CSRF, not found, unexpected errors): a heading, a
// sentence and a way back.
import { Layout, type Viewer } from './layout.js';

export function MessagePage(props: { title: string; message: string; viewer?: Viewer; linkHref?: string; linkText?: string }) {
  return (
    <Layout title={props.title} viewer={props.viewer}>
      <div class="card">
        <h1>{props.title}</h1>
        <p>{props.message}</p>
        <p><a href={props.linkHref ?? '/console'}>{props.linkText ?? 'Back to the console'}</a></p>
      </div>
    </Layout>
  );
}

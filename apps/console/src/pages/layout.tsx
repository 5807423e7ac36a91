// The frame around every page: head with the hashed assets, the top bar with the selected account,
// the navigation and "Log out" for signed-in pages, a centred card column for the others.
import type { ComponentChildren } from 'preact';
import type { ConsoleAccount } from '../console-services.js';
import { scriptPath, stylesheetPath } from '../http/assets.js';
import { CsrfField } from './components.js';

export type Section = 'keys' | 'wallet' | 'billing' | 'usage' | 'voices' | 'organizations' | 'sessions' | 'device';

export interface Viewer {
  email: string;
  account: ConsoleAccount;
  csrfToken: string;
  /** The deployment takes card payments: the Billing page exists. */
  billingEnabled?: boolean;
  /** The console reaches a data plane: the Voices page exists. */
  catalogEnabled?: boolean;
}

const sections: Array<{ id: Section; label: string; href: string; billingOnly?: boolean; catalogOnly?: boolean }> = [
  { id: 'keys', label: 'Keys', href: '/console/keys' },
  { id: 'wallet', label: 'Wallet', href: '/console/wallet' },
  { id: 'billing', label: 'Billing', href: '/console/billing', billingOnly: true },
  { id: 'usage', label: 'Usage', href: '/console/usage' },
  { id: 'voices', label: 'Voices', href: '/console/voices', catalogOnly: true },
  { id: 'organizations', label: 'Organizations', href: '/console/organizations' },
  { id: 'sessions', label: 'Sessions', href: '/console/sessions' },
];

function Head({ title }: { title: string }) {
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="referrer" content="same-origin" />
      <title>{`${title} · Voice Router`}</title>
      {/* An empty icon stops the browser asking for /favicon.ico outside the console. */}
      <link rel="icon" href="data:," />
      <link rel="stylesheet" href={stylesheetPath} />
      <script src={scriptPath} defer />
    </head>
  );
}

export function Layout(props: { title: string; viewer?: Viewer; section?: Section; children: ComponentChildren }) {
  const { viewer } = props;
  return (
    <html lang="en">
      <Head title={props.title} />
      <body>
        <header class="topbar">
          <div class="topbar-inner">
            <a class="brand" href="/console">Voice Router</a>
            {viewer ? (
              <>
                <nav class="nav" aria-label="Console">
                  {sections.filter((section) => (!section.billingOnly || viewer.billingEnabled) && (!section.catalogOnly || viewer.catalogEnabled)).map((section) => (
                    <a href={section.href} aria-current={props.section === section.id ? 'page' : undefined}>{section.label}</a>
                  ))}
                </nav>
                <div class="who">
                  <span title={viewer.email}>
                    Account: <strong>{viewer.account.name}</strong>
                  </span>
                  <form method="post" action="/console/logout" class="inline">
                    <CsrfField token={viewer.csrfToken} />
                    <button type="submit" class="small">Log out</button>
                  </form>
                </div>
              </>
            ) : null}
          </div>
        </header>
        <main class={viewer ? undefined : 'narrow'}>{props.children}</main>
      </body>
    </html>
  );
}

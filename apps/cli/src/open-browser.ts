// Best-effort browser launch for `vr login`: never throws, and reports whether a launcher started,
// so login can tell the user to open the link themselves.
import { spawn } from 'node:child_process';

function launcher(url: string, env: Record<string, string | undefined>): [string, string[]] | undefined {
  if (env.BROWSER) return [env.BROWSER, [url]];
  if (process.platform === 'darwin') return ['open', [url]];
  // `start` is a cmd built-in; the empty title keeps it from taking the URL as the window title.
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]];
  // Without a display xdg-open can only fall back to a terminal browser, which would fight the progress line.
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return ['xdg-open', [url]];
}

export function openBrowser(url: string, env: Record<string, string | undefined>): Promise<boolean> {
  const command = launcher(url, env);
  if (!command) return Promise.resolve(false);
  return new Promise((resolve) => {
    try {
      const child = spawn(command[0], command[1], { stdio: 'ignore', detached: true });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}

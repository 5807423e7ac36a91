// What a command may touch of the outside world, passed in so tests can run the CLI in-process.
export interface OutputStream {
  write(chunk: string | Uint8Array, callback?: (error?: Error | null) => void): boolean;
  once(event: 'drain', listener: () => void): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  env: Record<string, string | undefined>;
  fetch?: typeof globalThis.fetch;
  /** Opens a URL in the user's browser; resolves false when it could not. Defaults to xdg-open/open/start. */
  openBrowser?: (url: string) => Promise<boolean>;
  /** Waits between device-flow polls; tests shorten it. */
  sleep?: (milliseconds: number) => Promise<void>;
}

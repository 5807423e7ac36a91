// Deliberately slow readers over raw sockets: each sends one request, then consumes at most
// `readBytes` every `intervalMs`. Unread bytes stay in the kernel, so every hop behind it must
// hold back (backpressure) or buffer.
import net from 'node:net';
import type { RequestSpec } from './targets.js';

export interface SlowClientOptions {
  streams: number;
  readBytes: number;
  intervalMs: number;
}

interface SlowStream {
  socket: net.Socket;
  received: number;
  headerBytes?: number;
  status?: number;
  head: string;
  closed: boolean;
}

export interface SlowClientTotals {
  streams: number;
  /** Streams whose response status line arrived (200 means audio began). */
  answered: number;
  streaming: number;
  bodyBytes: number;
  statuses: Record<string, number>;
}

function requestText(spec: RequestSpec, host: string): string {
  const body = spec.body ?? '';
  const headers = Object.entries({ ...spec.headers, host, 'content-length': String(Buffer.byteLength(body)) })
    .map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return `${spec.method} ${spec.path} HTTP/1.1\r\n${headers}\r\n${body}`;
}

export class SlowClients {
  readonly #streams: SlowStream[] = [];
  #timer?: NodeJS.Timeout;

  constructor(private readonly baseUrl: string, private readonly specFor: (client: number) => RequestSpec, private readonly options: SlowClientOptions) {}

  /** Opens every stream (a few at a time, like clients arriving), then starts the slow reading. */
  async open(): Promise<void> {
    const url = new URL(this.baseUrl);
    for (let index = 0; index < this.options.streams; index += 1) {
      // A small high-water mark keeps Node itself from reading far ahead of the "application".
      const socket = new net.Socket({ readableHighWaterMark: this.options.readBytes } as net.SocketConstructorOpts);
      const stream: SlowStream = { socket, received: 0, head: '', closed: false };
      socket.on('error', () => undefined);
      socket.on('close', () => {
        stream.closed = true;
      });
      const text = requestText(this.specFor(index), url.host);
      socket.connect(Number(url.port), url.hostname, () => socket.write(text));
      socket.pause();
      this.#streams.push(stream);
      if (index % 50 === 49) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    this.#timer = setInterval(() => this.#readSome(), this.options.intervalMs);
  }

  #readSome(): void {
    for (const stream of this.#streams) {
      if (stream.closed) continue;
      const available = stream.socket.readableLength;
      if (available === 0) {
        // Nudge the stream so Node pulls the next bytes from the kernel into its small buffer.
        stream.socket.read(0);
        continue;
      }
      const chunk = stream.socket.read(Math.min(this.options.readBytes, available)) as Buffer | null;
      if (!chunk) continue;
      stream.received += chunk.length;
      if (stream.headerBytes === undefined) {
        stream.head += chunk.toString('latin1');
        const end = stream.head.indexOf('\r\n\r\n');
        if (end !== -1) {
          stream.headerBytes = end + 4;
          stream.status = Number(stream.head.slice(9, 12));
          stream.head = '';
        }
      }
    }
  }

  totals(): SlowClientTotals {
    const totals: SlowClientTotals = { streams: this.#streams.length, answered: 0, streaming: 0, bodyBytes: 0, statuses: {} };
    for (const stream of this.#streams) {
      if (stream.status === undefined) continue;
      totals.answered += 1;
      totals.statuses[stream.status] = (totals.statuses[stream.status] ?? 0) + 1;
      const body = stream.received - (stream.headerBytes ?? 0);
      totals.bodyBytes += body;
      if (stream.status === 200 && body > 0) totals.streaming += 1;
    }
    return totals;
  }

  close(): void {
    clearInterval(this.#timer);
    for (const stream of this.#streams) stream.socket.destroy();
  }
}

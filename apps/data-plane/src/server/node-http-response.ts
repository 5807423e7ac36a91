// The uWS HttpResponse interface over node:http's ServerResponse, with the semantics the routes rely
// on: write() reports backpressure (false once the socket holds more than its high-water mark) and
// onWritable fires when it drains; onAborted fires once if the client leaves before end(); onData
// delivers the body with isLast; after end/close/abort the response is invalid and every call throws,
// as in uWS. Event listeners are shared functions reaching the response through a back-reference,
// so a request allocates no closures here.
import { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpResponse } from '../uws.js';

/**
 * Receives what would otherwise reach the event loop and end the process: errors thrown by route
 * handlers and their callbacks (onData, onWritable, onAborted), with their response, or server-level
 * errors (no response).
 */
export type CallbackErrorReporter = (error: unknown, res: HttpResponse | undefined) => void;

export class AdapterIncomingMessage extends IncomingMessage {
  adapter: NodeHttpResponse | undefined = undefined;
}

export class AdapterServerResponse extends ServerResponse<AdapterIncomingMessage> {
  adapter: NodeHttpResponse | undefined = undefined;
}

const IN_FLIGHT = Symbol('in-flight responses');
type TrackedSocket = Socket & { [IN_FLIGHT]?: NodeHttpResponse[] };
const EMPTY_BODY = new Uint8Array(0);

function onSocketClose(this: TrackedSocket): void {
  const responses = this[IN_FLIGHT];
  if (responses) for (const response of responses.splice(0)) response.abort();
}

function onIncomingData(this: AdapterIncomingMessage, chunk: Buffer): void {
  this.adapter?.receive(chunk);
}

function onIncomingEnd(this: AdapterIncomingMessage): void {
  this.adapter?.receiveEnd();
}

function onOutgoingDrain(this: AdapterServerResponse): void {
  this.adapter?.drained();
}

function onOutgoingFinishClose(this: AdapterServerResponse): void {
  this.req.socket.destroySoon();
}

function abortResponse(response: NodeHttpResponse): void {
  response.abort();
}

function drainLater(response: NodeHttpResponse): void {
  response.drained();
}

function byteLength(chunk: string | Uint8Array): number {
  return typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
}

export class NodeHttpResponse implements HttpResponse {
  private status = '200 OK';
  private headers: string[] = [];
  private headersSent = false;
  /** Ended, closed or aborted: uWS invalidates the response then. */
  private done = false;
  private aborted = false;
  private tracked = false;
  private listeningForDrain = false;
  /** Node emitted 'drain' for the last refused write before the route registered onWritable. */
  private drainMissed = false;
  private lastChunkDelivered = false;
  /** Declared body bytes not yet delivered, or -1 when the length is not declared (chunked). */
  private bodyRemaining = -1;
  private offset = 0;
  private abortHandler: (() => void) | undefined = undefined;
  private writableHandler: ((offset: number) => boolean) | undefined = undefined;
  private dataHandler: ((chunk: ArrayBuffer | Uint8Array, isLast: boolean) => void) | undefined = undefined;

  constructor(
    private readonly incoming: AdapterIncomingMessage,
    private readonly outgoing: AdapterServerResponse,
    private readonly reportError: CallbackErrorReporter,
  ) {}

  writeStatus(status: string): this {
    this.assertOpen();
    if (!this.headersSent) this.status = status;
    return this;
  }

  writeHeader(key: string, value: string): this {
    this.assertOpen();
    if (!this.headersSent) this.headers.push(key, value);
    return this;
  }

  write(chunk: string | Uint8Array): boolean {
    this.assertOpen();
    if (!this.headersSent) this.sendHead();
    this.offset += byteLength(chunk);
    this.drainMissed = false;
    if (this.outgoing.write(chunk)) return true;
    // Listen before returning false: Node may emit 'drain' before the route gets to register onWritable
    // (Node 24 does when a cork is released with everything flushed); drained() keeps that for it.
    if (!this.listeningForDrain) {
      this.listeningForDrain = true;
      this.outgoing.adapter = this;
      this.outgoing.on('drain', onOutgoingDrain);
    }
    return false;
  }

  end(body?: string | Uint8Array, closeConnection = false): this {
    this.assertOpen();
    const streamed = this.headersSent;
    if (!streamed) {
      // Like uWS: a response ended in one go carries its Content-Length (so HEAD and keep-alive work).
      this.headers.push('content-length', String(body === undefined ? 0 : byteLength(body)));
      if (closeConnection) this.headers.push('connection', 'close');
      this.sendHead();
    }
    this.finish();
    if (streamed && closeConnection) this.outgoing.once('finish', onOutgoingFinishClose);
    this.outgoing.end(body);
    return this;
  }

  close(): this {
    this.assertOpen();
    this.abort();
    this.incoming.socket.destroy();
    return this;
  }

  onWritable(handler: (offset: number) => boolean): this {
    this.assertOpen();
    this.writableHandler = handler;
    if (this.drainMissed) {
      // The socket drained before the route asked; uWS never calls onWritable synchronously, so neither do we.
      this.drainMissed = false;
      setImmediate(drainLater, this);
    }
    return this;
  }

  onAborted(handler: () => void): this {
    this.assertOpen();
    this.abortHandler = handler;
    return this;
  }

  onData(handler: (chunk: ArrayBuffer | Uint8Array, isLast: boolean) => void): this {
    this.assertOpen();
    const first = this.dataHandler === undefined;
    this.dataHandler = handler;
    if (first) {
      const declared = this.incoming.headers['content-length'];
      this.bodyRemaining = declared === undefined ? -1 : Number(declared);
      this.incoming.adapter = this;
      this.incoming.on('data', onIncomingData);
      this.incoming.on('end', onIncomingEnd);
    }
    return this;
  }

  /**
   * Corks the socket itself, not the ServerResponse: Node 24's response-level cork buffers chunked
   * writes in the response and reports backpressure from that buffer, which would differ by Node line.
   */
  cork(callback: () => void): this {
    this.assertOpen();
    const socket = this.incoming.socket;
    socket.cork();
    try {
      callback();
    } finally {
      socket.uncork();
    }
    return this;
  }

  getRemoteAddressAsText(): ArrayBuffer {
    this.assertOpen();
    const address = this.incoming.socket.remoteAddress ?? '';
    return new TextEncoder().encode(address.startsWith('::ffff:') ? address.slice(7) : address).buffer as ArrayBuffer;
  }

  /** Not uWS: bytes written but not yet taken by the kernel (tests and benchmarks). */
  getBufferedAmount(): number {
    return this.outgoing.writableLength;
  }

  /** After the route handler returned without ending: from now on a closed socket means an abort. */
  track(): void {
    if (this.done) return;
    const socket = this.incoming.socket as TrackedSocket;
    if (socket.closed) {
      process.nextTick(abortResponse, this);
      return;
    }
    let responses = socket[IN_FLIGHT];
    if (responses === undefined) {
      responses = socket[IN_FLIGHT] = [];
      socket.once('close', onSocketClose);
    }
    responses.push(this);
    this.tracked = true;
  }

  /** The client went away (or close() was called) before end(). */
  abort(): void {
    if (this.done) return;
    this.aborted = true;
    const handler = this.abortHandler;
    this.finish();
    if (handler) this.invoke(handler);
  }

  receive(chunk: Buffer): void {
    if (this.done || this.lastChunkDelivered) return;
    let isLast = false;
    if (this.bodyRemaining > 0) {
      this.bodyRemaining -= chunk.byteLength;
      isLast = this.bodyRemaining <= 0;
    }
    this.deliver(chunk, isLast);
  }

  receiveEnd(): void {
    if (!this.done && !this.lastChunkDelivered) this.deliver(EMPTY_BODY, true);
  }

  drained(): void {
    if (this.done) return;
    const handler = this.writableHandler;
    if (!handler) {
      this.drainMissed = true;
      return;
    }
    // As uWS does: the handler is borrowed while it runs and kept only if it reports it is not done.
    this.writableHandler = undefined;
    let finished = true;
    try {
      finished = handler(this.offset);
    } catch (error) {
      this.reportError(error, this);
    }
    if (!finished && !this.done && this.writableHandler === undefined) this.writableHandler = handler;
  }

  get isAborted(): boolean {
    return this.aborted;
  }

  private deliver(chunk: Uint8Array, isLast: boolean): void {
    if (isLast) this.lastChunkDelivered = true;
    try {
      this.dataHandler?.(chunk, isLast);
    } catch (error) {
      this.reportError(error, this);
    }
  }

  private invoke(handler: () => void): void {
    try {
      handler();
    } catch (error) {
      this.reportError(error, this);
    }
  }

  private sendHead(): void {
    const status = this.status;
    const space = status.indexOf(' ');
    try {
      this.outgoing.writeHead(Number(space === -1 ? status : status.slice(0, space)), space === -1 ? undefined : status.slice(space + 1), this.headers);
    } catch (error) {
      // An invalid status or header value: nothing was sent, so the route may still answer (e.g. 500).
      this.headers = [];
      this.status = '200 OK';
      throw error;
    }
    this.headersSent = true;
  }

  private finish(): void {
    this.done = true;
    this.abortHandler = undefined;
    this.writableHandler = undefined;
    this.dataHandler = undefined;
    if (this.tracked) {
      this.tracked = false;
      const responses = (this.incoming.socket as TrackedSocket)[IN_FLIGHT];
      const index = responses ? responses.indexOf(this) : -1;
      if (index !== -1) responses!.splice(index, 1);
    }
  }

  private assertOpen(): void {
    if (this.done) throw new Error('HttpResponse used after it ended or was aborted (uWS forbids this too)');
  }
}

// The data plane's server on Node versions without a native uWS build: the uWS App interface the
// routes use (get/post/any, listen, us_socket_local_port, us_listen_socket_close) over node:http.
// Routing follows uWS for the patterns in use: an exact path for a method, then an exact path for any
// method, then '/prefix/*' wildcards (longest first), so '/v1/credits/' or '/V1/credits' fall through
// to the catch-all exactly as on uWS.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { errorBody } from '@voice-router/contracts';
import type { HttpServerModule, ListenSocket, RouteHandler, TemplatedApp } from '../uws.js';
import { lowerCaseMethod, NodeHttpRequest, originFormTarget } from './node-http-request.js';
import { AdapterIncomingMessage, AdapterServerResponse, NodeHttpResponse, type CallbackErrorReporter } from './node-http-response.js';

/** The socket send buffer above which write() reports backpressure; the same on every Node line. */
export const WRITE_HIGH_WATER_MARK = 64 * 1024;
/** A little above the 5 s many load balancers use, so they close idle connections first. */
const KEEP_ALIVE_TIMEOUT_MS = 10_000;
/**
 * Connections the kernel completes and queues while the event loop is busy, before it drops new ones
 * (capped by net.core.somaxconn, 4096 by default since Linux 5.4). Node's own default, 511, let a burst of
 * new clients overflow it: 1,000 slow clients connecting within 100 ms (the benchmark's scenario 4) cost
 * ~1,000 dropped SYNs on Node 24, each a client waiting 1 s or more to retry; with 4,096, none. The native
 * uWS server (backlog 512) takes connections faster and dropped none or few there.
 */
export const LISTEN_BACKLOG = 4096;

export interface NodeHttpAppOptions {
  /** Errors a route handler or callback let escape; the response is answered or closed by then. */
  onError?: CallbackErrorReporter;
}

interface Wildcard {
  prefix: string;
  handlers: Map<string, RouteHandler>;
}

/** Last-resort answer when a handler throws and no onError hook took care of it. */
const defaultReporter: CallbackErrorReporter = (error, res) => {
  process.emitWarning(`a data-plane route failed: ${(error as Error)?.stack ?? String(error)}`);
  if (!res) return;
  try {
    res.cork(() => res.writeStatus('500 Internal Server Error').end('', true));
  } catch {
    try {
      res.close();
    } catch {
      // Already ended or aborted: nothing left to answer.
    }
  }
};

type AdapterServer = http.Server<typeof AdapterIncomingMessage, typeof AdapterServerResponse>;

export class NodeHttpListenSocket {
  constructor(readonly server: AdapterServer) {}
}

export class NodeHttpApp implements TemplatedApp {
  private readonly exact = new Map<string, Map<string, RouteHandler>>();
  private readonly wildcards: Wildcard[] = [];
  private readonly reportError: CallbackErrorReporter;

  constructor(options: NodeHttpAppOptions = {}) {
    this.reportError = options.onError ?? defaultReporter;
  }

  get(pattern: string, handler: RouteHandler): this {
    return this.add('get', pattern, handler);
  }

  post(pattern: string, handler: RouteHandler): this {
    return this.add('post', pattern, handler);
  }

  any(pattern: string, handler: RouteHandler): this {
    return this.add('*', pattern, handler);
  }

  listen(host: string, port: number, callback: (listenSocket: ListenSocket | false) => void): this {
    const server = http.createServer<typeof AdapterIncomingMessage, typeof AdapterServerResponse>(
      {
        IncomingMessage: AdapterIncomingMessage,
        ServerResponse: AdapterServerResponse,
        highWaterMark: WRITE_HIGH_WATER_MARK,
        keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
        noDelay: true,
      },
      this.dispatch,
    );
    const failed = () => callback(false);
    server.once('error', failed);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', failed);
      // Accept errors (EMFILE under load) must not end the process; the server keeps listening.
      server.on('error', (error) => this.reportError(error, undefined));
      server.on('clientError', answerUnparsableRequest);
      callback(new NodeHttpListenSocket(server));
    });
    return this;
  }

  private add(method: string, pattern: string, handler: RouteHandler): this {
    if (pattern.includes(':') || (pattern.includes('*') && !pattern.endsWith('/*'))) {
      throw new Error(`the node:http adapter supports exact paths and '/prefix/*' only, not ${pattern}`);
    }
    if (pattern.endsWith('/*')) {
      const prefix = pattern.slice(0, -1);
      let wildcard = this.wildcards.find((item) => item.prefix === prefix);
      if (!wildcard) {
        wildcard = { prefix, handlers: new Map() };
        this.wildcards.push(wildcard);
        this.wildcards.sort((a, b) => b.prefix.length - a.prefix.length);
      }
      wildcard.handlers.set(method, handler);
      return this;
    }
    let handlers = this.exact.get(pattern);
    if (!handlers) this.exact.set(pattern, (handlers = new Map()));
    handlers.set(method, handler);
    return this;
  }

  private find(method: string, path: string): RouteHandler | undefined {
    const handlers = this.exact.get(path);
    const exact = handlers && (handlers.get(method) ?? handlers.get('*'));
    if (exact) return exact;
    for (const wildcard of this.wildcards) {
      if (path.startsWith(wildcard.prefix)) {
        const handler = wildcard.handlers.get(method) ?? wildcard.handlers.get('*');
        if (handler) return handler;
      }
    }
    return undefined;
  }

  private readonly dispatch = (incoming: AdapterIncomingMessage, outgoing: AdapterServerResponse): void => {
    const target = originFormTarget(incoming.url ?? '');
    if (target === undefined) {
      outgoing.writeHead(400, { connection: 'close', 'content-length': '0' }).end();
      return;
    }
    const queryStart = target.indexOf('?');
    const path = queryStart === -1 ? target : target.slice(0, queryStart);
    const method = lowerCaseMethod(incoming.method ?? 'GET');
    const response = new NodeHttpResponse(incoming, outgoing, this.reportError);
    const handler = this.find(method, path);
    if (!handler) {
      response.writeStatus('404 Not Found').end();
      return;
    }
    const request = new NodeHttpRequest(incoming, method, path, target, queryStart);
    try {
      const result = handler(response, request);
      if (result !== undefined) result.catch((error: unknown) => this.reportError(error, response));
    } catch (error) {
      this.reportError(error, response);
    }
    request.detach();
    response.track();
  };
}

function listenSocketOf(listenSocket: ListenSocket): NodeHttpListenSocket {
  if (!(listenSocket instanceof NodeHttpListenSocket)) throw new TypeError('not a listen socket of the node:http adapter');
  return listenSocket;
}

/** The adapter as a uWS-like module, so the data plane starts it exactly like the native build. */
export function createNodeHttpServer(options: NodeHttpAppOptions = {}): HttpServerModule {
  return {
    App: () => new NodeHttpApp(options),
    us_socket_local_port: (listenSocket) => (listenSocketOf(listenSocket).server.address() as AddressInfo).port,
    us_listen_socket_close: (listenSocket) => void listenSocketOf(listenSocket).server.close(),
  };
}

/**
 * A request node's parser refuses (e.g. a raw non-ASCII byte in the target, found by the fuzz) gets the
 * API's JSON error like every other refusal; oversized headers keep node's own 431.
 */
function answerUnparsableRequest(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET' || error.code === 'HPE_HEADER_OVERFLOW') {
    if (error.code === 'HPE_HEADER_OVERFLOW' && socket.writable) socket.end('HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n');
    else socket.destroy();
    return;
  }
  const body = JSON.stringify(errorBody('invalid_body', 'malformed HTTP request'));
  // An answer to HEAD carries no body, even when the parser refused the rest of the request.
  const head = (error as NodeJS.ErrnoException & { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${head ? '' : body}`,
  );
}

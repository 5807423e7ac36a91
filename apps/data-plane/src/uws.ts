// The server interface every data-plane route is written against: the subset of uWebSockets.js that
// the routes use, with uWS semantics. Two implementations serve it (server/select-server.ts picks one
// at start-up): the native uWS build where it loads, and the node:http adapter (server/node-http-*.ts).
// Keeping the routes on this narrow interface is what lets both paths behave the same.

/** Route handlers run synchronously; one that answers later must register onAborted first (uWS rule). */
export type RouteHandler = (res: HttpResponse, req: HttpRequest) => void | Promise<void>;

export interface HttpResponse {
  /** "200 OK"; before any write or end. */
  writeStatus(status: string): HttpResponse;
  writeHeader(key: string, value: string): HttpResponse;
  /** Streams part of the body (chunked when no length is known). False = backpressure: wait for onWritable. */
  write(chunk: string | Uint8Array): boolean;
  /** Ends the response (with a Content-Length when nothing was written before); closeConnection closes the socket after it. */
  end(body?: string | Uint8Array, closeConnection?: boolean): HttpResponse;
  /** Closes the connection at once; the response is cut (the client sees a truncated transfer). */
  close(): HttpResponse;
  /** Called when the socket drained after write() returned false; return true when done writing for now. */
  onWritable(handler: (offset: number) => boolean): HttpResponse;
  /** Called once if the client goes away before the response ended. Required before answering asynchronously. */
  onAborted(handler: () => void): HttpResponse;
  /** The request body, chunk by chunk; the chunk's memory may be reused after the call, so copy it. */
  onData(handler: (chunk: ArrayBuffer | Uint8Array, isLast: boolean) => void): HttpResponse;
  /** Batches the writes made in the callback into as few socket writes as possible. */
  cork(callback: () => void): HttpResponse;
  getRemoteAddressAsText(): ArrayBuffer;
}

/** Valid only synchronously inside the route handler (uWS frees it when the handler returns). */
export interface HttpRequest {
  /** The header's value ('' when absent); the name must be lower-case. */
  getHeader(lowerCaseKey: string): string;
  /** Lower-case method, e.g. 'get'. */
  getMethod(): string;
  /** The path, without the query string. */
  getUrl(): string;
  /** The raw query string without '?': undefined when the target has no '?', '' when it ends with one. */
  getQuery(): string | undefined;
  /** Every header, names in lower case. */
  forEach(callback: (key: string, value: string) => void): void;
}

/** Opaque handle of a listening socket. */
export type ListenSocket = object;

export interface TemplatedApp {
  get(pattern: string, handler: RouteHandler): TemplatedApp;
  post(pattern: string, handler: RouteHandler): TemplatedApp;
  /**
   * Every method; '/*' is the catch-all. Specific routes win over it, as in uWS. A HEAD request's answer
   * carries no body whatever the handler writes (node:http drops it; native uWS through server/bodiless-head.ts).
   */
  any(pattern: string, handler: RouteHandler): TemplatedApp;
  listen(host: string, port: number, callback: (listenSocket: ListenSocket | false) => void): TemplatedApp;
}

/** What the data plane needs from a server implementation (the native uWS module satisfies it). */
export interface HttpServerModule {
  App(): TemplatedApp;
  us_socket_local_port(listenSocket: ListenSocket): number;
  us_listen_socket_close(listenSocket: ListenSocket): void;
}

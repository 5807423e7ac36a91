// HEAD answers without a body on native uWS. uWS sends HEAD requests to `any` routes and writes whatever
// end() is given, even for HEAD; a client then reads that body as the start of the next response. The
// adapter needs none of this: node:http drops the body of a HEAD answer itself and keeps its length.
import type { HttpRequest, HttpResponse, ListenSocket, RouteHandler, TemplatedApp } from '../uws.js';

/**
 * What a HEAD request's handler writes to: status and headers pass, the body does not. uWS's own
 * `endWithoutBody` (which would keep the GET's Content-Length) closes the connection without writing
 * anything in the 20.30 build, so such an answer says `Content-Length: 0` (uWS adds it to every end()).
 */
export class BodilessResponse implements HttpResponse {
  constructor(private readonly inner: HttpResponse) {}
  writeStatus(status: string): this {
    this.inner.writeStatus(status);
    return this;
  }
  writeHeader(key: string, value: string): this {
    this.inner.writeHeader(key, value);
    return this;
  }
  write(): boolean {
    return true;
  }
  end(_body?: string | Uint8Array, closeConnection?: boolean): this {
    this.inner.end(undefined, closeConnection);
    return this;
  }
  close(): this {
    this.inner.close();
    return this;
  }
  onWritable(handler: (offset: number) => boolean): this {
    this.inner.onWritable(handler);
    return this;
  }
  onAborted(handler: () => void): this {
    this.inner.onAborted(handler);
    return this;
  }
  onData(handler: (chunk: ArrayBuffer | Uint8Array, isLast: boolean) => void): this {
    this.inner.onData(handler);
    return this;
  }
  cork(callback: () => void): this {
    this.inner.cork(callback);
    return this;
  }
  getRemoteAddressAsText(): ArrayBuffer {
    return this.inner.getRemoteAddressAsText();
  }
}

/** The app with every `any` route's HEAD requests answered through a BodilessResponse. */
export function bodilessHead(app: TemplatedApp): TemplatedApp {
  const wrapped: TemplatedApp = {
    get: (pattern, handler) => (app.get(pattern, handler), wrapped),
    post: (pattern, handler) => (app.post(pattern, handler), wrapped),
    any: (pattern, handler: RouteHandler) => (
      app.any(pattern, (res: HttpResponse, req: HttpRequest) => handler(req.getMethod() === 'head' ? new BodilessResponse(res) : res, req)), wrapped
    ),
    listen: (host: string, port: number, callback: (listenSocket: ListenSocket | false) => void) => (app.listen(host, port, callback), wrapped),
  };
  return wrapped;
}

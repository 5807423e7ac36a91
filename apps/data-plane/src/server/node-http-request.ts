// The uWS HttpRequest interface over a node:http IncomingMessage. Like uWS it is valid only while the
// route handler runs: afterwards every method throws, so a route that works here also works on uWS.
import type { IncomingMessage } from 'node:http';
import type { HttpRequest } from '../uws.js';

const LOWER_CASE_METHODS = new Map(
  ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'CONNECT', 'TRACE'].map((method) => [method, method.toLowerCase()]),
);

export function lowerCaseMethod(method: string): string {
  return LOWER_CASE_METHODS.get(method) ?? method.toLowerCase();
}

const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * The request target as uWS routes see it: origin-form ('/path?query'). An absolute-form target
 * ('http://host/path?query', which RFC 9112 says a server must accept) keeps only its path and query;
 * anything else ('*', garbage) gives undefined and is refused with 400.
 */
export function originFormTarget(target: string): string | undefined {
  if (target.charCodeAt(0) === 47 /* '/' */) return target;
  const authority = ABSOLUTE_FORM.exec(target);
  if (!authority) return undefined;
  const rest = target.slice(authority[0].length);
  return rest.charCodeAt(0) === 47 ? rest : `/${rest}`;
}

export class NodeHttpRequest implements HttpRequest {
  private incoming: IncomingMessage | undefined;

  /** `target` is origin-form; `queryStart` is the index of its first '?', or -1. */
  constructor(
    incoming: IncomingMessage,
    private readonly method: string,
    private readonly path: string,
    private readonly target: string,
    private readonly queryStart: number,
  ) {
    this.incoming = incoming;
  }

  /** Called when the route handler returns: uWS frees its request then. */
  detach(): void {
    this.incoming = undefined;
  }

  getHeader(lowerCaseKey: string): string {
    const value = this.live().headers[lowerCaseKey];
    if (value === undefined) return '';
    return typeof value === 'string' ? value : value.join(', ');
  }

  getMethod(): string {
    this.live();
    return this.method;
  }

  getUrl(): string {
    this.live();
    return this.path;
  }

  getQuery(): string | undefined {
    this.live();
    return this.queryStart === -1 ? undefined : this.target.slice(this.queryStart + 1);
  }

  forEach(callback: (key: string, value: string) => void): void {
    const raw = this.live().rawHeaders;
    for (let index = 0; index + 1 < raw.length; index += 2) callback(raw[index]!.toLowerCase(), raw[index + 1]!);
  }

  private live(): IncomingMessage {
    if (!this.incoming) throw new Error('HttpRequest used after its route handler returned; read what you need synchronously');
    return this.incoming;
  }
}

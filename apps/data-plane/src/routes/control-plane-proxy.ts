// Everything the data plane does not serve itself goes to the control plane, so one base URL serves
// every /v1 path and the console (the embedded mode, or a deployment without a path-routing balancer).
import { ERROR_STATUS } from '@voice-router/contracts';
import { Pool, type Dispatcher } from 'undici';
import { normaliseAddress, parseTrustedProxies, type TrustedProxies } from '@voice-router/service-kit';
import type { DataPlaneContext } from '../context.js';
import { FORWARDING_HEADER_NAMES, forwardingHeaders } from '../http/forwarding-headers.js';
import { readBody } from '../http/request-body.js';
import { annotateRequest } from '../logging/request-log.js';
import { respond, sendError, sendRawJson, statusLine, trackAbort, waitForWritable } from '../http/response.js';
import type { TemplatedApp } from '../uws.js';

const MAX_PROXIED_BODY_BYTES = 1_048_576;
/** A request target is printable ASCII (RFC 9112); anything else must arrive percent-encoded. */
const VALID_TARGET = /^[\x21-\x7e]*$/;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer', 'content-length']);
/**
 * Not forwarded from the client's request: hop-by-hop fields, and Expect. The data plane reads the whole body
 * (its server answers `100 Continue` itself) before it forwards, and undici refuses to send Expect: a request
 * with `Expect: 100-continue` (.NET Framework's HttpWebRequest and Windows PowerShell send it on every POST, curl
 * on large bodies) was a 500 "control plane unavailable".
 */
const NOT_FORWARDED = new Set([...HOP_BY_HOP, 'expect']);
/** Not relayed from the control plane's answer: hop-by-hop fields, and Date, which both servers add themselves (uWS sent two). */
const NOT_RELAYED = new Set([...HOP_BY_HOP, 'date']);

export function registerControlPlaneProxy(
  app: TemplatedApp, context: DataPlaneContext, controlPlaneUrl: string | undefined, trustedProxies: TrustedProxies = parseTrustedProxies(''),
): () => Promise<void> {
  if (!controlPlaneUrl) {
    app.any('/*', (res) => sendError(res, trackAbort(res), 'not_found', 'no such endpoint'));
    return async () => undefined;
  }
  const pool = new Pool(controlPlaneUrl, { connections: 32, keepAliveTimeout: 10_000 });
  app.any('/*', (res, req) => {
    const method = req.getMethod().toUpperCase();
    const query = req.getQuery();
    const path = req.getUrl() + (query ? `?${query}` : '');
    const headers: Record<string, string> = {};
    req.forEach((name, value) => {
      if (!NOT_FORWARDED.has(name) && name !== 'host' && !FORWARDING_HEADER_NAMES.has(name)) headers[name] = value;
    });
    // The socket's address, read now (the request object is only valid synchronously in this handler).
    const peer = normaliseAddress(Buffer.from(res.getRemoteAddressAsText()).toString());
    Object.assign(headers, forwardingHeaders(peer, {
      forwardedFor: req.getHeader('x-forwarded-for'),
      forwardedProto: req.getHeader('x-forwarded-proto'),
      forwardedHost: req.getHeader('x-forwarded-host'),
      host: req.getHeader('host'),
    }, trustedProxies));
    const state = trackAbort(res);
    // undici refuses such a path outright; without this check that became a 500 "control plane unavailable".
    if (!VALID_TARGET.test(path)) {
      // A HEAD answer has no body: writing one would be read as the start of the next response.
      if (method === 'HEAD') return sendRawJson(res, state, ERROR_STATUS.invalid_body, '', true);
      return sendError(res, state, 'invalid_body', 'the request path must be ASCII: percent-encode other characters', { closeConnection: true });
    }
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const body = hasBody ? readBody(res, req.getHeader('content-length'), MAX_PROXIED_BODY_BYTES, () => state.aborted) : undefined;
    (async () => {
      const read = body ? await body : undefined;
      if (read && !read.ok) {
        if (read.reason === 'too_large') sendError(res, state, 'invalid_body', 'body too large', { closeConnection: true });
        return;
      }
      const upstream = await pool.request({ method: method as 'GET', path, headers, body: read?.body });
      // The client left while the control plane answered. The body is read and dropped: destroying it
      // unread makes undici emit an 'error' event, which with no listener ended the whole process.
      if (state.aborted) return discard(upstream.body);
      // The control plane's X-Request-Id (the caller's own, when it sent a plain token) joins this line to its.
      const requestId = upstream.headers['x-request-id'];
      if (typeof requestId === 'string') annotateRequest(res, { requestId });
      res.cork(() => {
        res.writeStatus(statusLine(upstream.statusCode));
        for (const [name, value] of Object.entries(upstream.headers)) {
          if (NOT_RELAYED.has(name) || value === undefined) continue;
          for (const item of Array.isArray(value) ? value : [value]) res.writeHeader(name, item);
        }
      });
      respond(state, upstream.statusCode);
      for await (const chunk of upstream.body) {
        // Leaving the loop destroys the body; the iterator's own listener takes undici's abort error.
        if (state.aborted) return;
        let writable = true;
        res.cork(() => {
          writable = res.write(chunk as Buffer);
        });
        if (!writable) await waitForWritable(res, state);
      }
      if (!state.aborted) res.cork(() => res.end());
    })().catch((error) => {
      context.logger.error('control plane proxy failed', { path, error });
      if (!state.responded) sendError(res, state, 'internal_error', 'the control plane is unavailable');
      else if (!state.aborted) res.close();
    });
  });
  return () => pool.close();
}

/** Reads and drops a body nobody will see (undici closes the connection past 128 KiB); never throws. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.dump().catch(() => undefined);
}

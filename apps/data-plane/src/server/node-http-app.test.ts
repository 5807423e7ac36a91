// The node:http adapter speaks the uWS interface with uWS's semantics: routing, request accessors,
// targets that must never throw, keep-alive, HEAD, chunked bodies, closing, and failing handlers.
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpRequest, HttpResponse } from '../uws.js';
import { LISTEN_BACKLOG } from './node-http-app.js';
import { originFormTarget } from './node-http-request.js';
import { get, parseResponse, rawExchange, startApp, type RunningApp } from './node-http.test-support.js';

const running: RunningApp[] = [];
afterEach(() => {
  for (const app of running.splice(0)) app.close();
});

async function start(...args: Parameters<typeof startApp>): Promise<number> {
  const app = await startApp(...args);
  running.push(app);
  return app.port;
}

/** Echoes what the route saw through the uWS request interface. */
function echo(tag: string) {
  return (res: HttpResponse, req: HttpRequest) => {
    const headers: string[] = [];
    req.forEach((name, value) => headers.push(`${name}=${value}`));
    const seen = { tag, method: req.getMethod(), url: req.getUrl(), query: req.getQuery() ?? null, auth: req.getHeader('authorization'), headers };
    res.writeStatus('200 OK').writeHeader('content-type', 'application/json').end(JSON.stringify(seen));
  };
}

describe('the node:http adapter: routing and requests', () => {
  it('routes like uWS: exact path per method, then the catch-all for any other path, case or method', async () => {
    const port = await start((app) => {
      app.get('/v1/credits', echo('credits'));
      app.post('/v1/audio/speech', echo('speech'));
      app.any('/*', echo('catch-all'));
    });
    const seen = async (request: string) => JSON.parse(parseResponse((await rawExchange(port, request)).text).body);
    expect(await seen(get('/v1/credits'))).toMatchObject({ tag: 'credits', method: 'get', url: '/v1/credits', query: null, auth: '' });
    expect(await seen(get('/v1/credits?'))).toMatchObject({ tag: 'credits', query: '' });
    expect(await seen(get('/v1/credits?limit=5&x=%20'))).toMatchObject({ tag: 'credits', query: 'limit=5&x=%20' });
    expect(await seen(get('/v1/audio/speech', { 'content-length': '0' }, 'POST'))).toMatchObject({ tag: 'speech', method: 'post' });
    for (const target of ['/v1/credits/', '/V1/credits', '//v1/credits', '/v1//credits', '/']) {
      expect(await seen(get(target))).toMatchObject({ tag: 'catch-all', url: target });
    }
    expect(await seen(get('/v1/credits', { 'content-length': '0' }, 'POST'))).toMatchObject({ tag: 'catch-all', method: 'post' });
    expect(await seen(get('/v1/credits', { 'content-length': '0' }, 'DELETE'))).toMatchObject({ tag: 'catch-all', method: 'delete' });
  });

  it('reads headers by lower-case name and lists them all in lower case', async () => {
    const port = await start((app) => app.get('/h', echo('h')));
    const body = JSON.parse(parseResponse((await rawExchange(port, get('/h', { Authorization: 'Bearer x', 'X-Organization-Id': 'Org' }))).text).body);
    expect(body.auth).toBe('Bearer x');
    expect(body.headers).toEqual(expect.arrayContaining(['authorization=Bearer x', 'x-organization-id=Org', 'host=test']));
  });

  it('never throws on odd targets: percent garbage, double slashes, several ?, absolute-form; refuses what has no path', async () => {
    const port = await start((app) => app.any('/*', echo('any')));
    const cases: Array<[string, string, string | null]> = [
      ['//x', '//x', null],
      ['/%zz?%zz=%', '/%zz', '%zz=%'],
      ['/a?b?c', '/a', 'b?c'],
      ['/x#frag', '/x#frag', null],
      ['/?', '/', ''],
      ['http://example.com/v1/credits/activity?limit=5', '/v1/credits/activity', 'limit=5'],
      ['http://example.com', '/', null],
      ['https://example.com?q', '/', 'q'],
      [`/long?${'a'.repeat(8000)}`, '/long', 'a'.repeat(8000)],
    ];
    for (const [target, url, query] of cases) {
      const response = parseResponse((await rawExchange(port, get(target))).text);
      expect(response.status, target).toBe(200);
      expect(JSON.parse(response.body), target).toMatchObject({ url, query });
    }
    for (const target of ['*', 'example.com/x', 'mailto:x']) {
      const answer = await rawExchange(port, get(target));
      expect(parseResponse(answer.text).status, target).toBe(400);
      expect(answer.closedByServer).toBe(true);
    }
    expect(originFormTarget('HTTP://H:80/a?b')).toBe('/a?b');
    // Still serving.
    expect(parseResponse((await rawExchange(port, get('/ok'))).text).status).toBe(200);
  });

  it('refuses the request object after the handler returned, as uWS frees it', async () => {
    let later: unknown;
    const port = await start((app) =>
      app.get('/late', (res, req) => {
        res.onAborted(() => undefined);
        setImmediate(() => {
          try {
            req.getHeader('host');
          } catch (error) {
            later = error;
          }
          res.end('done');
        });
      }));
    expect(parseResponse((await rawExchange(port, get('/late'))).text).body).toBe('done');
    expect(String(later)).toMatch(/after its route handler returned/);
  });
});

describe('the node:http adapter: responses', () => {
  it('keeps the connection alive between responses, and closes it after end(body, true)', async () => {
    const port = await start((app) => {
      app.get('/a', (res) => void res.end('first'));
      app.get('/close', (res) => void res.writeStatus('400 Bad Request').end('{"error":"x"}', true));
    });
    const both = await rawExchange(port, get('/a') + get('/a'), { expectResponses: 2 });
    expect(both.text.match(/\r\n\r\nfirst/g)).toHaveLength(2);
    expect(both.closedByServer).toBe(false);

    const closing = await rawExchange(port, get('/close') + get('/a'), { expectResponses: 2 });
    const answer = parseResponse(closing.text);
    expect(answer.status).toBe(400);
    expect(answer.headers).toMatchObject({ connection: 'close', 'content-length': '13' });
    expect(closing.text).not.toContain('first');
    expect(closing.closedByServer).toBe(true);
  });

  it('answers HTTP/1.0 requests, without keeping the connection (native uWS 20.30 never answers them: README)', async () => {
    const port = await start((app) => app.get('/readyz', (res) => void res.writeHeader('content-type', 'application/json').end('{"status":"ready"}')));
    const exchange = await rawExchange(port, 'GET /readyz HTTP/1.0\r\n\r\n');
    expect(exchange.text).toMatch(/^HTTP\/1\.[01] 200 /);
    expect(parseResponse(exchange.text).body).toBe('{"status":"ready"}');
    expect(exchange.closedByServer).toBe(true);
  });

  it('answers HEAD with the headers only, and the connection stays usable', async () => {
    const port = await start((app) => app.any('/*', (res) => void res.writeHeader('content-type', 'text/plain').end('twelve bytes')));
    const exchange = await rawExchange(port, get('/x', {}, 'HEAD') + get('/x'), { expectResponses: 2 });
    const [head, second] = exchange.text.split(/(?=HTTP\/1\.1 )/);
    expect(parseResponse(head!)).toMatchObject({ status: 200, body: '', headers: { 'content-length': '12' } });
    expect(parseResponse(second!).body).toBe('twelve bytes');
  });

  it('streams chunked when no length is known, and sends the status and headers written first', async () => {
    const port = await start((app) =>
      app.get('/stream', (res) => {
        res.onAborted(() => undefined);
        res.cork(() => {
          res.writeStatus('201 Created').writeHeader('x-one', '1').writeHeader('set-cookie', 'a=1').writeHeader('set-cookie', 'b=2');
          res.write(Buffer.from('hello '));
        });
        setImmediate(() => res.cork(() => res.write('wörld')).end());
      }));
    const response = await fetch(`http://127.0.0.1:${port}/stream`);
    expect(response.status).toBe(201);
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('x-one')).toBe('1');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.text()).toBe('hello wörld');
  });

  it('cuts the transfer on close(): the client sees an incomplete response, not a short complete one', async () => {
    let aborted = 0;
    const port = await start((app) =>
      app.get('/cut', (res) => {
        res.onAborted(() => (aborted += 1));
        res.write('partial');
        setImmediate(() => res.close());
      }));
    const error = await new Promise<Error>((resolve) => {
      http.get(`http://127.0.0.1:${port}/cut`, (response) => {
        response.on('error', resolve);
        response.resume();
        response.on('end', () => resolve(new Error('ended cleanly')));
      }).on('error', resolve);
    });
    expect(error.message).not.toBe('ended cleanly');
    expect(aborted).toBe(1);
  });

  it('throws on a response used after end(), as uWS does', async () => {
    let afterEnd: unknown;
    const port = await start((app) =>
      app.get('/twice', (res) => {
        res.end('once');
        try {
          res.write('again');
        } catch (error) {
          afterEnd = error;
        }
      }));
    expect(parseResponse((await rawExchange(port, get('/twice'))).text).body).toBe('once');
    expect(String(afterEnd)).toMatch(/after it ended/);
  });
});

describe('the node:http adapter: failing handlers', () => {
  it('hands a handler\'s throw or rejection and a callback\'s throw to the hook, and keeps serving', async () => {
    const reported: unknown[] = [];
    const port = await start(
      (app) => {
        app.get('/throw', () => {
          throw new Error('sync failure');
        });
        app.get('/reject', async (res) => {
          res.onAborted(() => undefined);
          await new Promise((resolve) => setImmediate(resolve));
          throw new Error('async failure');
        });
        app.post('/body', (res) => {
          res.onAborted(() => undefined);
          res.onData(() => {
            throw new Error('body callback failure');
          });
        });
        app.get('/ok', (res) => void res.end('fine'));
      },
      {
        onError: (error, res) => {
          reported.push(error);
          res?.writeStatus('500 Internal Server Error').end('{"error":"internal_error"}');
        },
      },
    );
    for (const [path, method] of [['/throw', 'GET'], ['/reject', 'GET'], ['/body', 'POST']] as const) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, ...(method === 'POST' ? { body: 'x' } : {}) });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: 'internal_error' });
    }
    expect(reported.map(String)).toEqual(['Error: sync failure', 'Error: async failure', 'Error: body callback failure']);
    expect(await (await fetch(`http://127.0.0.1:${port}/ok`)).text()).toBe('fine');
  });

  it('without a hook still answers 500 and keeps serving', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const port = await start((app) => {
        app.get('/throw', () => {
          throw new Error('unhooked failure');
        });
        app.get('/ok', (res) => void res.end('fine'));
      });
      expect((await fetch(`http://127.0.0.1:${port}/throw`)).status).toBe(500);
      expect(await (await fetch(`http://127.0.0.1:${port}/ok`)).text()).toBe('fine');
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.join()).toContain('unhooked failure');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('reports a taken port to listen() as false instead of throwing', async () => {
    const port = await start((app) => app.get('/x', (res) => void res.end()));
    const { createNodeHttpServer } = await import('./node-http-app.js');
    const result = await new Promise((resolve) => createNodeHttpServer().App().listen('127.0.0.1', port, resolve));
    expect(result).toBe(false);
  });
});

describe('the node:http adapter: a burst of new connections', () => {
  it('queues more connections than Node\'s default backlog (511) while its event loop is busy, instead of dropping SYNs', async () => {
    const port = await start((app) => app.get('/x', (res) => void res.end('ok')));
    // Connecting from this thread: the server accepts none until every connect() below was issued, so the
    // kernel's accept queue alone must hold them. Beyond the backlog the kernel drops the SYN and the
    // client retries after 1 s; within it each connection completes at once.
    const count = 700;
    expect(LISTEN_BACKLOG).toBeGreaterThan(count);
    const sockets: net.Socket[] = [];
    let connected = 0;
    try {
      for (let index = 0; index < count; index += 1) {
        const socket = net.connect(port, '127.0.0.1');
        socket.on('connect', () => (connected += 1));
        socket.on('error', () => undefined);
        sockets.push(socket);
      }
      const deadline = Date.now() + 900;
      while (connected < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(connected).toBe(count);
      const answer = parseResponse((await rawExchange(port, get('/x'))).text);
      expect(answer.status).toBe(200);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});

describe('the node:http adapter: requests its parser refuses', () => {
  it('answers a raw non-ASCII target with the API\'s JSON 400, not a bare one (found by the fuzz on Node 24)', async () => {
    const port = await start((app) => app.any('/*', echo('catch-all')));
    const exchange = await rawExchange(port, get('/v1/audio/speech\u00e9'));
    const response = parseResponse(exchange.text);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body)).toEqual({ error: 'invalid_body', details: 'malformed HTTP request' });
    expect(exchange.closedByServer).toBe(true);
  });
});

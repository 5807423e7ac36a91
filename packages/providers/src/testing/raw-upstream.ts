// An upstream over raw TCP for tests that need to control how an answer is cut into socket writes (for
// instance, the last audio chunk and the end of a chunked body in one write, or apart): each request
// with a complete body is answered with `parts(body)`, each part one `socket.write`, `gapMs` apart.
import net from 'node:net';

export interface RawUpstream {
  /** The origin with OpenAI's version path, as OPENAI_BASE_URL takes it. */
  baseUrl: string;
  close(): Promise<void>;
}

export async function startRawUpstream(parts: (body: string) => Buffer[], gapMs = 0): Promise<RawUpstream> {
  const server = net.createServer((socket) => {
    let received = '';
    socket.on('data', async (data) => {
      received += data.toString('latin1');
      const headerEnd = received.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(received.slice(0, headerEnd))?.[1] ?? 0);
      if (received.length < headerEnd + 4 + length) return;
      const body = received.slice(headerEnd + 4, headerEnd + 4 + length);
      received = '';
      for (const [index, part] of parts(body).entries()) {
        if (index > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
        if (!socket.destroyed) socket.write(part);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The head of a 200 audio answer with a chunked body. */
export const CHUNKED_AUDIO_HEAD = 'HTTP/1.1 200 OK\r\ncontent-type: audio/mpeg\r\ntransfer-encoding: chunked\r\n\r\n';
/** The terminating chunk of a chunked body. */
export const CHUNKED_END = Buffer.from('0\r\n\r\n');

/** One chunk of a chunked body. */
export function chunkedPart(bytes: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
}

// HTTP requests from a chosen loopback address (127.0.0.2, 127.0.0.3, …), so that end-to-end suites
// can play several clients, and a proxy, that the router tells apart by their socket address.
import http from 'node:http';

export interface AddressedReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export function requestFrom(
  localAddress: string, url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<AddressedReply> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: init.method ?? 'GET', headers: init.headers, localAddress, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(init.body);
  });
}

// Small HTTP helpers shared by the fakes' tests (fixtures are excluded from the build).


export interface PostResult {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
}

export async function post(url: string, headers: Record<string, string>, body: unknown): Promise<PostResult> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: bytes.toString('utf8') };
}

export { probeAudio, startsWithMp3FrameSync } from '@voice-router/test-support';

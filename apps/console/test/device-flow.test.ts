// Device approval: the complete verification URI survives log-in, the code is looked up, then
// approved or denied; wrong codes show the service's message and are limited.
import { afterEach, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from './console-app.js';
import { ConsoleClient, signedUpClient } from './http-client.js';

let running: RunningConsole | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('device approval', () => {
  it('sends a logged-out visitor to log in and back to the URL with the code', async () => {
    running = await startConsole();
    await signedUpClient(running.baseUrl, 'ada@example.com');
    const client = new ConsoleClient(running.baseUrl);
    const first = await client.get('/console/device?user_code=WDJB-MJHT');
    expect(first.status).toBe(303);
    expect(first.location).toBe(`/console/login?next=${encodeURIComponent('/console/device?user_code=WDJB-MJHT')}`);
    await client.get(first.location!);
    const login = await client.post('/console/login', { email: 'ada@example.com', password: 'correct horse battery', next: '/console/device?user_code=WDJB-MJHT' });
    expect(login.location).toBe('/console/device?user_code=WDJB-MJHT');
    const form = await client.get(login.location!);
    expect(form.body).toContain('<label for="user_code">Code</label>');
    expect(form.body).toMatch(/id="user_code" name="user_code" type="text" value="WDJB-MJHT"/);
  });

  it('confirms the code, then approves it', async () => {
    running = await startConsole();
    running.services.addDeviceCode('WDJB-MJHT');
    const client = await signedUpClient(running.baseUrl, 'ada@example.com');
    await client.get('/console/device?user_code=WDJB-MJHT');
    const confirm = await client.post('/console/device', { user_code: 'WDJB-MJHT' });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain('<div class="user-code" aria-label="Device code">WDJB-MJHT</div>');
    expect(confirm.body).toContain('value="approve">Approve</button>');
    expect(confirm.body).toContain('value="deny" class="secondary">Deny</button>');
    const done = await client.post('/console/device/decide', { user_code: 'WDJB-MJHT', decision: 'approve' });
    expect(done.body).toContain('Device approved — you can return to your terminal');
    const decision = running.services.deviceCodes.get('WDJBMJHT')?.decision;
    expect(decision?.decision).toBe('approve');
    expect(decision?.userId).toBe(running.services.users.get('ada@example.com')?.userId);

    const again = await client.post('/console/device', { user_code: 'WDJB-MJHT' });
    expect(again.status).toBe(409);
    expect(again.body).toContain('That code has already been used.');
  });

  it('denies a code', async () => {
    running = await startConsole();
    running.services.addDeviceCode('BCDF-GHJK');
    const client = await signedUpClient(running.baseUrl, 'ada@example.com');
    await client.get('/console/device');
    await client.post('/console/device', { user_code: 'bcdf-ghjk' });
    const done = await client.post('/console/device/decide', { user_code: 'BCDF-GHJK', decision: 'deny' });
    expect(done.body).toContain('Request denied');
    expect(running.services.deviceCodes.get('BCDFGHJK')?.decision?.decision).toBe('deny');
  });

  it('shows expiry and unknown-code messages, then the guessing limit', async () => {
    running = await startConsole();
    running.services.addDeviceCode('OLDC-ODES', -1);
    const client = await signedUpClient(running.baseUrl, 'ada@example.com');
    await client.get('/console/device');
    const expired = await client.post('/console/device', { user_code: 'OLDC-ODES' });
    expect(expired.status).toBe(410);
    expect(expired.body).toContain('That code has expired.');
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await client.post('/console/device', { user_code: `NOPE-000${attempt}` });
      expect(wrong.status).toBe(404);
      expect(wrong.body).toContain('That code is not known.');
    }
    const limited = await client.post('/console/device', { user_code: 'NOPE-0009' });
    expect(limited.status).toBe(429);
    expect(limited.body).toContain('Too many wrong codes.');
  });

  it('refuses a decision without the CSRF token', async () => {
    running = await startConsole();
    running.services.addDeviceCode('WDJB-MJHT');
    const client = await signedUpClient(running.baseUrl, 'ada@example.com');
    const reply = await client.post('/console/device/decide', { user_code: 'WDJB-MJHT', decision: 'approve' }, { csrf: null });
    expect(reply.status).toBe(403);
    expect(running.services.deviceCodes.get('WDJBMJHT')?.decision).toBeUndefined();
  });
});

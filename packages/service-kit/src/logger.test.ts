import { describe, expect, it } from 'vitest';
import { cachedMemberCount, createLogger, isoTimeNow } from './logger.js';

function recorder(options: Partial<Parameters<typeof createLogger>[0]> = {}) {
  const lines: string[] = [];
  const logger = createLogger({ name: 't', write: (line) => lines.push(line), ...options });
  return { logger, lines, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, any>) };
}

describe('the logger', () => {
  it('writes one JSON line per call with time, level, app, message and fields', () => {
    const { logger, lines, parsed } = recorder();
    logger.info('hello', { provider: 'openai', status: 200 });
    logger.child({ component: 'billing' }).warn('careful');
    expect(lines).toHaveLength(2);
    expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
    const [first, second] = parsed();
    expect(first).toMatchObject({ level: 'info', app: 't', msg: 'hello', provider: 'openai', status: 200 });
    expect(new Date(first!.time).toISOString()).toBe(first!.time);
    expect(second).toMatchObject({ level: 'warn', app: 't', component: 'billing', msg: 'careful' });
  });

  it('honours the level, and silent writes nothing', () => {
    const quiet = recorder({ level: 'warn' });
    quiet.logger.info('no');
    quiet.logger.error('yes');
    expect(quiet.parsed().map((line) => line.msg)).toEqual(['yes']);
    expect(quiet.logger.isEnabled('info')).toBe(false);
    const silent = recorder({ level: 'silent' });
    silent.logger.error('nothing');
    expect(silent.lines).toEqual([]);
    expect(silent.logger.isEnabled('error')).toBe(false);
  });

  it('hides secret fields (objects too), secrets inside messages and errors, and its configured secrets', () => {
    const { logger, parsed } = recorder({ secrets: ['0123456789abcdef0123456789abcdef'] });
    logger.error('upstream said Bearer pk_abcdefgh12345678 was wrong', {
      webhookSecret: 'x', stripeSecretKey: 'y', paymentIntentId: 'pi_1', authorization: { scheme: 'Bearer', value: 'z' },
      headers: { 'xi-api-key': '0123456789abcdef0123456789abcdef' },
      error: new Error('fetch https://api.elevenlabs.io/v1/tts?xi-api-key=0123456789abcdef0123456789abcdef failed'),
    });
    const [line] = parsed();
    expect(line).toMatchObject({ webhookSecret: '[redacted]', stripeSecretKey: '[redacted]', paymentIntentId: 'pi_1', authorization: '[redacted]' });
    expect(line!.headers['xi-api-key']).toBe('[redacted]');
    expect(JSON.stringify(line)).not.toMatch(/pk_abcdefgh|0123456789abcdef0123456789abcdef/);
    expect(line!.error).toMatchObject({ type: 'Error', message: expect.stringContaining('xi-api-key=[redacted]') });
    expect(line!.error.stack).toContain('logger.test');
  });

  it('logs an error\'s message, code and cause but not its other properties (they may hold upstream bodies)', () => {
    const { logger, parsed } = recorder();
    const error = Object.assign(new Error('outer', { cause: new TypeError('inner') }), { code: 'E_X', body: 'UPSTREAM BODY' });
    logger.error('failed', { error });
    const [line] = parsed();
    expect(line!.error).toMatchObject({ type: 'Error', message: 'outer', code: 'E_X', cause: { type: 'TypeError', message: 'inner' } });
    expect(JSON.stringify(line)).not.toContain('UPSTREAM BODY');
  });

  it('writes infoLine as the same line info() writes, child bindings included', () => {
    const { logger, lines, parsed } = recorder({ base: { region: 'eu' } });
    const child = logger.child({ component: 'speech', replica: 2, scope: { region: 'eu', zones: [1, 2] } });
    const fields = { method: 'POST', path: '/v1/audio/speech', status: 200, latencyMs: 1.25, bytes: 16384, cut: false, provider: undefined };
    child.info('request', fields);
    child.infoLine('request', fields);
    const [slow, fast] = parsed();
    expect(fast).toEqual({ ...slow, time: fast!.time });
    expect(Object.keys(fast!)).toEqual(Object.keys(slow!));
    expect(lines[1]!.endsWith('}\n')).toBe(true);
    expect(new Date(fast!.time).toISOString()).toBe(fast!.time);
    expect(fast).not.toHaveProperty('provider');
  });

  it('censors infoLine fields by name and scrubs every string value and the message', () => {
    const { logger, lines, parsed } = recorder({ secrets: ['0123456789abcdef0123456789abcdef'] });
    logger.infoLine('saw Bearer pk_abcdefgh12345678', {
      path: '/v1/tts?api_key=0123456789abcdef0123456789abcdef', sessionToken: 'vr_session_abcdefgh', apiKeyId: 'key_1',
      note: 'quote " and backslash \\ and newline \n', ratio: Number.NaN, webhookSecret: 42,
    });
    const [line] = parsed();
    expect(lines[0]).not.toMatch(/pk_abcdefgh|0123456789abcdef0123456789abcdef|vr_session_abcdefgh/);
    expect(line).toMatchObject({
      msg: 'saw Bearer [redacted]', path: '/v1/tts?api_key=[redacted]', sessionToken: '[redacted]', apiKeyId: 'key_1',
      note: 'quote " and backslash \\ and newline \n', ratio: null, webhookSecret: '[redacted]',
    });
  });

  it('reuses the text of short repeated values, scrubbed, and keeps at most 1,000 of them', () => {
    const { logger, parsed } = recorder({ secrets: ['abcdefgh12345678'] });
    const child = logger.child({ component: 'speech' });
    for (let index = 0; index < 2_500; index += 1) {
      // Short values (cached): a secret's shape, a configured secret, a repeated method; and a long one (not cached).
      const requestId = `0b6e1c9a-3f1d-4c2e-9a7b-${String(index).padStart(12, '0')}`;
      (index % 2 ? child : logger).infoLine('request', {
        method: 'POST', path: `/p/pk_${index}abcdefgh`, note: `/s/abcdefgh12345678`, requestId, status: 200,
      });
      expect(cachedMemberCount(logger)).toBeLessThanOrEqual(1_000);
    }
    const lines = parsed();
    expect(lines).toHaveLength(2_500);
    lines.forEach((line, index) => {
      expect(line).toMatchObject({ method: 'POST', path: '/p/[redacted]', note: '/s/[redacted]', status: 200 });
      expect(line.requestId).toBe(`0b6e1c9a-3f1d-4c2e-9a7b-${String(index).padStart(12, '0')}`);
    });
    // A logger with other secrets keeps its own texts: the same value is not redacted there.
    const other = recorder();
    other.logger.infoLine('request', { note: '/s/abcdefgh12345678' });
    expect(other.parsed()[0]!.note).toBe('/s/abcdefgh12345678');
  });

  it('writes nothing from infoLine above info', () => {
    const { logger, lines } = recorder({ level: 'warn' });
    logger.infoLine('request', { status: 200 });
    expect(lines).toEqual([]);
  });

  it('formats the time as Date#toISOString does, across seconds', () => {
    for (const now of [0, 999, 1_000, 1_764_173_783_005, 1_764_173_783_050, 1_764_173_783_999, 1_764_173_784_000, 1_764_173_784_123]) {
      expect(isoTimeNow(now)).toBe(new Date(now).toISOString());
    }
    // The same millisecond twice, then back and forth across seconds.
    for (const now of [5_000, 5_000, 5_001, 4_999, 5_001, 5_001, 1_000_000]) expect(isoTimeNow(now)).toBe(new Date(now).toISOString());
  });
});

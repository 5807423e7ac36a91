import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

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
});

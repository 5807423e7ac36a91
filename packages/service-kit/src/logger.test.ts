import { describe, expect, it } from 'vitest';
import { createLogger, redact } from './logger.js';

describe('log redaction', () => {
  it('hides secrets by value, including Stripe\'s keys, webhook secrets and client secrets', () => {
    const text = [
      'pk_abcdefgh12345678', 'vr_session_abcdefgh1234', 'sk-abcdefgh12345678', 'sk_live_51Habcdefgh', 'sk_test_51Habcdefgh',
      'rk_live_51Habcdefgh', 'whsec_abcdefgh1234+/=', 'pi_3PgafyB7WZ01_secret_Dm43xiq1k0yw',
    ].join(' ');
    expect(redact(text)).toBe(Array(8).fill('[redacted]').join(' '));
    expect(redact('pi_3PgafyB7WZ01zgkW and cus_QXg1o8vcGmoR32 stay')).toBe('pi_3PgafyB7WZ01zgkW and cus_QXg1o8vcGmoR32 stay');
  });

  it('hides fields whose names look secret', () => {
    const lines: string[] = [];
    createLogger({ name: 't', write: (line) => lines.push(line) }).info('m', { webhookSecret: 'x', stripeSecretKey: 'y', paymentIntentId: 'pi_1' });
    expect(JSON.parse(lines[0]!)).toMatchObject({ webhookSecret: '[redacted]', stripeSecretKey: '[redacted]', paymentIntentId: 'pi_1' });
  });
});

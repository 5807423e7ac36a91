import { describe, expect, it } from 'vitest';
import { createSecretScrubber, scrubberPatterns, scrubSecrets } from './secret-scrubber.js';

describe('the secret scrubber', () => {
  it('hides every secret kind by its shape', () => {
    const secrets = [
      'pk_Zm9vYmFyYmF6cXV4cXV1eDEyMzQ1Njc4OTA', // our API key
      'vr_session_abcdefgh1234_-xyz', 'vr_invite_abcdefgh1234', 'vr_device_abcdefgh1234',
      'sk_test_51Habcdefgh', 'sk_live_51Habcdefgh', 'rk_live_51Habcdefgh', 'rk_test_51Habcdefgh', 'pk_live_51Habcdefgh',
      'whsec_abcdefgh1234+/=', 'pi_3PgafyB7WZ01_secret_Dm43xiq1k0yw', 'seti_1Abc_secret_Dm43xiq1k0yw',
      'sk-abcdefgh12345678', 'sk-proj-abcdefgh_12345678', // OpenAI
      'sk_0123456789abcdef0123456789abcdef0123456789abcdef', // ElevenLabs
      'sk_car_abcdefgh12345678', // Cartesia
    ];
    for (const secret of secrets) {
      const scrubbed = scrubSecrets(`failed for ${secret}, retrying`);
      expect(scrubbed, secret).toBe('failed for [redacted], retrying');
    }
  });

  it('hides credentials carried in text: bearer tokens, query parameters, URL passwords', () => {
    expect(scrubSecrets('header Authorization: Bearer abcdefgh12345678.xyz end')).toBe('header Authorization: Bearer [redacted] end');
    expect(scrubSecrets('GET https://api.example.com/v1/tts?api_key=0123456789abcdef&voice=x failed'))
      .toBe('GET https://api.example.com/v1/tts?api_key=[redacted]&voice=x failed');
    expect(scrubSecrets('/x?voice=a&token=abc&xi-api-key=def')).toBe('/x?voice=a&token=[redacted]&xi-api-key=[redacted]');
    expect(scrubSecrets('connect postgresql://postgres:hunter2secret@db:5432/vr refused'))
      .toBe('connect postgresql://postgres:[redacted]@db:5432/vr refused');
    expect(scrubSecrets('redis://:p4ss@127.0.0.1:6379')).toBe('redis://:[redacted]@127.0.0.1:6379');
    // The data plane logs proxied paths; an invitation link carries its token in the path.
    expect(scrubSecrets('{"path":"/console/invitations/vr_invite_AbCdEf0123456789-_xyzXYZ"}')).toBe('{"path":"/console/invitations/[redacted]"}');
  });

  it('hides JSON members whose names say secret, at any depth, and keeps their ids and hashes', () => {
    const line = JSON.stringify({
      msg: 'm', authorization: 'Basic dXNlcjpwYXNz', nested: { headers: { 'xi-api-key': 'abc', 'X-API-Key': 'def', cookie: 'a=b' } },
      webhookSecret: 'x', stripeSecretKey: 'y', sessionToken: 'z', invitationToken: 'w', password: 'p "quoted" \\ too',
      apiKeyId: 'kept-1', tokenHash: 'kept-2', keySuffix: 'kept-3', paymentIntentId: 'pi_1',
    });
    const scrubbed = JSON.parse(scrubSecrets(line)) as Record<string, any>;
    expect(scrubbed).toMatchObject({
      authorization: '[redacted]', webhookSecret: '[redacted]', stripeSecretKey: '[redacted]', sessionToken: '[redacted]',
      invitationToken: '[redacted]', password: '[redacted]', apiKeyId: 'kept-1', tokenHash: 'kept-2', keySuffix: 'kept-3', paymentIntentId: 'pi_1',
    });
    expect(scrubbed.nested.headers).toEqual({ 'xi-api-key': '[redacted]', 'X-API-Key': '[redacted]', cookie: '[redacted]' });
  });

  it('hides the literal secrets it is given, whatever their shape, and leaves ordinary text alone', () => {
    const scrub = createSecretScrubber(['0123456789abcdef0123456789abcdef', 'fake-key-0011223344556677', 'short', undefined]);
    expect(scrub('key 0123456789abcdef0123456789abcdef and fake-key-0011223344556677 short'))
      .toBe('key [redacted] and [redacted] short');
    const ordinary = 'pi_3PgafyB7WZ01zgkW and cus_QXg1o8vcGmoR32 stay; a pk_ key is required; sk- alone; Bearer';
    expect(scrubSecrets(ordinary)).toBe(ordinary);
  });

  it('skips the full pattern only for text it cannot match (pre-check sound on generated text)', () => {
    const { pattern, mayMatch } = scrubberPatterns;
    const pieces = [
      'pk_', 'Sk_', 'rk_', 'sk-', 'SK-', 'vr_session_', 'whsec_', 'pi_1_secret_', 'Bearer ', 'bearer\t', '?api_key=', '&Token=', ';key=',
      'https://', 'u:p@', '"password":"', '"X-Api-Key":"', 'abcdefgh', '12345678', '/v1/audio/speech', '-', ' ', 'é', 'ABCDEF', ':',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    let skipped = 0;
    for (let sample = 0; sample < 20_000; sample += 1) {
      let text = '';
      for (let count = next() % 6; count >= 0; count -= 1) text += pieces[next() % pieces.length];
      pattern.lastIndex = 0;
      const matches = pattern.test(text);
      if (!mayMatch.test(text)) {
        skipped += 1;
        expect(matches, text).toBe(false);
      }
    }
    expect(skipped).toBeGreaterThan(100);
    expect(scrubSecrets('/v1/audio/speech')).toBe('/v1/audio/speech');
    expect(scrubSecrets('3f2a9c1e-8b7d-4e6f-9a0b-1c2d3e4f5a6b')).toBe('3f2a9c1e-8b7d-4e6f-9a0b-1c2d3e4f5a6b');
  });
});

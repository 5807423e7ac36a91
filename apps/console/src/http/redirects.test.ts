import { describe, expect, it } from 'vitest';
import { safeNext } from './redirects.js';

describe('safeNext', () => {
  it.each([
    '/console/keys',
    '/console',
    '/console/device?user_code=ABCD-EFGH',
    '/console/invitations/abc_DEF-123',
  ])('keeps %j', (next) => {
    expect(safeNext(next)).toBe(next);
  });

  it.each([
    'https://evil.example/console',
    '//evil.example/console',
    '/\\evil.example',
    '/console\\..\\..\\evil',
    '/consoleevil',
    '/other',
    'javascript:alert(1)',
    '/console/../admin',
    ' /console/keys',
    '/console/\tkeys',
    '',
    undefined,
    ['/console/keys'],
  ])('replaces %j with the default', (next) => {
    expect(safeNext(next)).toBe('/console/keys');
  });
});

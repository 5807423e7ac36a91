import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError, UsageError } from './cli-errors.js';
import { configDirectory, configFilePath, readConfig, updateConfig, writeConfig } from './config.js';
import { DEFAULT_BASE_URL, resolveSettings } from './settings.js';

let scratch: string;
beforeEach(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-cli-config-'));
});
afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('where the config lives', () => {
  it('prefers VR_CONFIG_DIR, then XDG_CONFIG_HOME, then ~/.config', () => {
    expect(configDirectory({ VR_CONFIG_DIR: '/a/b', XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/a/b');
    expect(configDirectory({ XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/x/voice-router');
    expect(configDirectory({ HOME: '/h' })).toBe('/h/.config/voice-router');
    expect(configFilePath({ VR_CONFIG_DIR: '/a' })).toBe('/a/config.json');
  });
});

describe('the config file', () => {
  it('is written 0600 inside a 0700 directory, even under a permissive umask', () => {
    const file = path.join(scratch, 'nested', 'voice-router', 'config.json');
    const previous = process.umask(0);
    try {
      writeConfig(file, { sessionToken: 'vr_session_secret', baseUrl: 'http://h:1' });
    } finally {
      process.umask(previous);
    }
    expect(mode(file)).toBe(0o600);
    expect(mode(path.dirname(file))).toBe(0o700);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ baseUrl: 'http://h:1', sessionToken: 'vr_session_secret' });
    expect(fs.readdirSync(path.dirname(file))).toEqual(['config.json']);
  });

  it('tightens a directory and file that were too open', () => {
    const directory = path.join(scratch, 'open');
    fs.mkdirSync(directory, { mode: 0o755 });
    const file = path.join(directory, 'config.json');
    fs.writeFileSync(file, '{}', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    updateConfig(file, { apiKey: 'pk_x' });
    expect(mode(file)).toBe(0o600);
    expect(mode(directory)).toBe(0o700);
  });

  it('reads a missing file as empty, keeps only known string fields, and removes fields set to undefined', () => {
    const file = path.join(scratch, 'config.json');
    expect(readConfig(file)).toEqual({});
    fs.writeFileSync(file, JSON.stringify({ apiKey: 'pk_1', sessionToken: 7, extra: 'x', organization: '' }));
    expect(readConfig(file)).toEqual({ apiKey: 'pk_1' });
    updateConfig(file, { sessionToken: 'vr_session_1', userId: 'u' });
    expect(updateConfig(file, { sessionToken: undefined })).toEqual({ apiKey: 'pk_1', userId: 'u' });
    expect(readConfig(file)).toEqual({ apiKey: 'pk_1', userId: 'u' });
  });

  it('says which file is broken instead of crashing on bad JSON', () => {
    const file = path.join(scratch, 'config.json');
    fs.writeFileSync(file, '{not json');
    expect(() => readConfig(file)).toThrow(CliError);
    expect(() => readConfig(file)).toThrow(file);
  });
});

describe('resolveSettings precedence', () => {
  const config = { baseUrl: 'http://config:3', organization: 'org-config', apiKey: 'pk_config', sessionToken: 'vr_session_c' };

  it('base URL: flag > VR_BASE_URL > config > default', () => {
    expect(resolveSettings({ baseUrl: 'http://flag:1' }, { VR_BASE_URL: 'http://env:2' }, config).baseUrl).toBe('http://flag:1');
    expect(resolveSettings({}, { VR_BASE_URL: 'http://env:2' }, config).baseUrl).toBe('http://env:2');
    expect(resolveSettings({}, {}, config).baseUrl).toBe('http://config:3');
    expect(resolveSettings({}, {}, {}).baseUrl).toBe(DEFAULT_BASE_URL);
  });

  it('accepts OpenAI-style base URLs and refuses what is not http(s)', () => {
    expect(resolveSettings({ baseUrl: 'https://tts.example.com/v1/' }, {}, {}).baseUrl).toBe('https://tts.example.com');
    expect(resolveSettings({ baseUrl: 'http://h:8080/prefix/' }, {}, {}).baseUrl).toBe('http://h:8080/prefix');
    expect(() => resolveSettings({ baseUrl: 'not a url' }, {}, {})).toThrow(UsageError);
    expect(() => resolveSettings({ baseUrl: 'ftp://h' }, {}, {})).toThrow(UsageError);
  });

  it('organization: --org > VR_ORGANIZATION > config', () => {
    expect(resolveSettings({ org: 'personal' }, { VR_ORGANIZATION: 'org-env' }, config)).toMatchObject({ organization: 'personal', organizationFromFlag: 'personal' });
    expect(resolveSettings({}, { VR_ORGANIZATION: 'org-env' }, config)).toMatchObject({ organization: 'org-env', organizationFromFlag: undefined });
    expect(resolveSettings({}, {}, config).organization).toBe('org-config');
    expect(resolveSettings({}, {}, {}).organization).toBeUndefined();
  });

  it('API key: --api-key > VR_API_KEY > config, and only the first two count as asked for on this run', () => {
    expect(resolveSettings({ apiKey: 'pk_flag' }, { VR_API_KEY: 'pk_env' }, config)).toMatchObject({ apiKey: 'pk_flag', apiKeyExplicit: true });
    expect(resolveSettings({}, { VR_API_KEY: 'pk_env' }, config)).toMatchObject({ apiKey: 'pk_env', apiKeyExplicit: true });
    expect(resolveSettings({}, {}, config)).toMatchObject({ apiKey: 'pk_config', apiKeyExplicit: false, sessionToken: 'vr_session_c' });
  });
});

// The template renderer the load-balancer suites use: fills every placeholder of the real template,
// leaves nginx's own variables alone, and refuses to leave a placeholder unfilled.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nginxTemplatePath, renderNginxConfig } from './nginx.js';

const values = {
  LISTEN: '127.0.0.1:1', DATA_PLANE_SERVERS: 'server 127.0.0.1:2;', CONTROL_PLANE_SERVERS: 'server 127.0.0.1:3;',
  STREAM_READ_TIMEOUT: '310s', CLIENT_MAX_BODY_SIZE: '1m',
};

describe('renderNginxConfig', () => {
  it('fills the deployment template and keeps nginx variables', () => {
    const config = renderNginxConfig(fs.readFileSync(nginxTemplatePath, 'utf8'), values);
    expect(config).not.toMatch(/\$\{[A-Z]/);
    expect(config).toContain('listen 127.0.0.1:1;');
    expect(config).toContain('server 127.0.0.1:2;');
    expect(config).toContain('proxy_set_header X-Forwarded-For $remote_addr;');
  });

  it('refuses a placeholder it has no value for', () => {
    expect(() => renderNginxConfig('listen ${LISTEN}; ${MISSING}', { LISTEN: '1' })).toThrow('no value for ${MISSING}');
  });
});

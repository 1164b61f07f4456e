import { expect } from 'chai';
import { KubeError, noopLogger } from '@kubekit/core';
import { defaultLogger, logSettingsFromEnv, streamLogger } from '../src/logger.js';

describe('logging defaults', () => {
  const at = (): Date => new Date(Date.UTC(2026, 0, 2, 3, 4, 5));

  it('is silent unless KUBEKIT_LOG_LEVEL is set', () => {
    expect(defaultLogger({})).to.equal(noopLogger);
    expect(defaultLogger({ KUBEKIT_LOG_LEVEL: 'off' })).to.equal(noopLogger);
    expect(defaultLogger({ KUBEKIT_LOG_LEVEL: 'info' })).to.not.equal(noopLogger);
  });

  it('reads the level and format, case-insensitively, and rejects other values naming the variable and the accepted values', () => {
    expect(logSettingsFromEnv({ KUBEKIT_LOG_LEVEL: 'Debug', KUBEKIT_LOG_FORMAT: 'JSON' })).to.deep.equal({ level: 'debug', format: 'json' });
    expect(logSettingsFromEnv({ KUBEKIT_LOG_LEVEL: 'warn' })).to.deep.equal({ level: 'warn', format: 'text' });
    expect(() => logSettingsFromEnv({ KUBEKIT_LOG_LEVEL: 'verbose' })).to.throw(KubeError,
      'KUBEKIT_LOG_LEVEL: Unsupported value: "verbose": supported values: "error", "warn", "info", "debug", "off"');
    expect(() => logSettingsFromEnv({ KUBEKIT_LOG_FORMAT: 'yaml' })).to.throw(KubeError, 'KUBEKIT_LOG_FORMAT: Unsupported value: "yaml": supported values: "text", "json"');
  });

  it('writes text and JSON lines at the level and above, with child fields', () => {
    const lines: string[] = [];
    const stream = { write: (l: string) => lines.push(l) };
    const text = streamLogger({ level: 'warn', stream, now: at }).child({ controller: 'shirts' });
    text.info('dropped');
    text.warn('watch failed; retrying', { delayMs: 800 });
    const json = streamLogger({ level: 'debug', format: 'json', stream, now: at });
    json.debug('listed', { objects: 3, error: new Error('boom') });
    expect(lines).to.deep.equal([
      '2026-01-02T03:04:05.000Z WARN  watch failed; retrying controller="shirts" delayMs=800\n',
      '{"objects":3,"error":"boom","level":"debug","message":"listed","timestamp":"2026-01-02T03:04:05.000Z"}\n',
    ]);
  });
});

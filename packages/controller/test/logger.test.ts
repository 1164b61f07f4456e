// createLogger takes its level and format from KUBEKIT_LOG_LEVEL and KUBEKIT_LOG_FORMAT (as the other
// kubekit loggers, see @kubekit/informer's logSettingsFromEnv) unless its options say otherwise.
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { createLogger, type CreateLoggerOptions } from '@kubekit/controller';

/** The lines a logger created under `env` writes for one entry at each level. */
async function linesUnder(env: Record<string, string | undefined>, options: CreateLoggerOptions = {}): Promise<string[]> {
  const saved = { level: process.env.KUBEKIT_LOG_LEVEL, format: process.env.KUBEKIT_LOG_FORMAT };
  const set = (name: string, value: string | undefined): void => { if (value === undefined) delete process.env[name]; else process.env[name] = value; };
  set('KUBEKIT_LOG_LEVEL', env.KUBEKIT_LOG_LEVEL);
  set('KUBEKIT_LOG_FORMAT', env.KUBEKIT_LOG_FORMAT);
  try {
    const stream = new PassThrough();
    const chunks: string[] = [];
    stream.on('data', (d: Buffer) => chunks.push(d.toString()));
    const logger = createLogger({ ...options, stream });
    logger.debug('d'); logger.info('i'); logger.warn('w'); logger.error('e');
    await new Promise((r) => setImmediate(r));
    return chunks.join('').trim().split('\n').filter((l) => l !== '');
  } finally {
    set('KUBEKIT_LOG_LEVEL', saved.level);
    set('KUBEKIT_LOG_FORMAT', saved.format);
  }
}

/** `LEVEL message` of each line, text (`time LEVEL message …`) or JSON. */
function entries(lines: string[]): string[] {
  return lines.map((l) => {
    if (l.startsWith('{')) {
      const { level, message } = JSON.parse(l) as { level: string; message: string };
      return `json ${level.toUpperCase()} ${message}`;
    }
    const [, level, message] = l.split(/ +/);
    return `text ${level} ${message}`;
  });
}

describe('createLogger', () => {
  it('writes info and above as text when neither variable is set', async () => {
    expect(entries(await linesUnder({}))).to.deep.equal(['text INFO i', 'text WARN w', 'text ERROR e']);
  });

  it('takes the level and format from KUBEKIT_LOG_LEVEL and KUBEKIT_LOG_FORMAT', async () => {
    expect(entries(await linesUnder({ KUBEKIT_LOG_LEVEL: 'warn', KUBEKIT_LOG_FORMAT: 'json' }))).to.deep.equal(['json WARN w', 'json ERROR e']);
  });

  it('lets its options override the variables', async () => {
    expect(entries(await linesUnder({ KUBEKIT_LOG_LEVEL: 'error', KUBEKIT_LOG_FORMAT: 'json' }, { level: 'debug', format: 'text' })))
      .to.deep.equal(['text DEBUG d', 'text INFO i', 'text WARN w', 'text ERROR e']);
  });

  it('writes at its default level (info) when KUBEKIT_LOG_LEVEL is off', async () => {
    expect(entries(await linesUnder({ KUBEKIT_LOG_LEVEL: 'off' }))).to.deep.equal(['text INFO i', 'text WARN w', 'text ERROR e']);
  });
});

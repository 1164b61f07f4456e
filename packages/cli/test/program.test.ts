import { expect } from 'chai';
import { exitCodes, runCli } from '@kubekit/cli';
import { kubekit, repoRoot } from './support/kubekit.js';

describe('runCli', () => {
  it('prints help with the exit codes, for the program and every command', async () => {
    const top = await kubekit(['--help']);
    expect(top.code).to.equal(0);
    expect(top.stdout).to.contain('Usage: kubekit [options] [command]');
    expect(top.stdout).to.contain('Exit codes:\n  0  success\n  1  the input is wrong');
    for (const command of [['crd', 'generate'], ['crd', 'validate'], ['fields'], ['select'], ['default'], ['serve'], ['crd']]) {
      const result = await kubekit([...command, '--help']);
      expect(result.code, command.join(' ')).to.equal(0);
      expect(result.stdout, command.join(' ')).to.contain(`Usage: kubekit ${command.join(' ')}`);
      expect(result.stdout, command.join(' ')).to.contain('Exit codes:');
    }
  });

  it('prints its version', async () => {
    const result = await kubekit(['--version']);
    expect(result).to.deep.equal({ code: 0, stdout: '0.1.0\n', stderr: '' });
  });

  it('exits 2 on usage errors', async () => {
    const unknown = await kubekit(['frobnicate']);
    expect(unknown.code).to.equal(exitCodes.usage);
    expect(unknown.stderr).to.contain("error: unknown command 'frobnicate'");
    const missing = await kubekit(['select', '--crd', 'x.yaml']);
    expect(missing.code).to.equal(exitCodes.usage);
    expect(missing.stderr).to.contain("error: required option '-f, --filename <file>' not specified");
    const badChoice = await kubekit(['select', '-f', 'a', '--crd', 'b', '-o', 'table']);
    expect(badChoice.code).to.equal(exitCodes.usage);
    expect(badChoice.stderr).to.contain("argument 'table' is invalid. Allowed choices are wide, name, yaml, json.");
  });

  it('uses colour only on terminals, and never with NO_COLOR', async () => {
    const tty = await kubekit(['crd', 'validate', 'missing.yaml'], { tty: true });
    expect(tty.stderr).to.equal('\u001b[31merror:\u001b[39m cannot read missing.yaml: no such file\n');
    const pipe = await kubekit(['crd', 'validate', 'missing.yaml']);
    expect(pipe.stderr).to.equal('error: cannot read missing.yaml: no such file\n');
    const noColor = await kubekit(['crd', 'validate', 'missing.yaml'], { tty: true, env: { NO_COLOR: '1' } });
    expect(noColor.stderr).to.equal('error: cannot read missing.yaml: no such file\n');
    const forced = await kubekit(['crd', 'validate', 'missing.yaml'], { env: { FORCE_COLOR: '1' } });
    expect(forced.stderr).to.contain('\u001b[31m');
    expect([tty.code, pipe.code]).to.deep.equal([exitCodes.usage, exitCodes.usage]);
  });

  it('colours each stream by its own terminal-ness', async () => {
    let stdout = '';
    const code = await runCli(['crd', 'validate', 'examples/shirts/crd/shirts.stable.example.com.yaml'], {
      cwd: repoRoot,
      env: {},
      stdout: { write: (text: string) => (stdout += text), isTTY: false },
      stderr: { write: () => true, isTTY: true },
    });
    expect(code).to.equal(0);
    expect(stdout).to.equal('examples/shirts/crd/shirts.stable.example.com.yaml: CustomResourceDefinition "shirts.stable.example.com" is valid\n');
  });
});

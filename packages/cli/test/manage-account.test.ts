/**
 * The account and server commands as users run them: `signpost` as a process against a real
 * Signpost server (started in this process on a fresh database): every command's --help, signing
 * in with a token or a password, signing up, and `server migrate` / `server start`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useManageServer } from './manage-support.ts';
import { cliEntry } from './support.ts';

describe('signpost account and server commands', { timeout: 600_000 }, () => {
  const cli = useManageServer('signpost-cli-manage-account-');
  const { signpost, ok, json } = cli;

  it('prints --help for every command', async () => {
    const commands = [
      [],
      ['server'],
      ['server', 'start'],
      ['server', 'migrate'],
      ['login'],
      ['signup'],
      ['logout'],
      ['whoami'],
      ['projects'],
      ['projects', 'list'],
      ['projects', 'create'],
      ['projects', 'update'],
      ['projects', 'use'],
      ['projects', 'show'],
      ['keys', 'list'],
      ['keys', 'create'],
      ['keys', 'revoke'],
      ['features', 'list'],
      ['features', 'show'],
      ['features', 'update'],
      ['features', 'merge'],
      ['features', 'delete'],
      ['changelog', 'list'],
      ['changelog', 'create'],
      ['changelog', 'edit'],
      ['changelog', 'publish'],
      ['changelog', 'unpublish'],
      ['changelog', 'delete'],
      ['tags', 'list'],
      ['tags', 'create'],
      ['tags', 'rename'],
      ['tags', 'delete'],
      ['features', 'tag'],
      ['releases', 'list'],
      ['releases', 'create'],
      ['releases', 'edit'],
      ['releases', 'delete'],
      ['site', 'show'],
      ['site', 'maintenance'],
      ['site', 'debug'],
      ['site', 'flags', 'set'],
      ['site', 'messages', 'add'],
      ['site', 'envs', 'add'],
      ['bugs', 'list'],
      ['errors', 'show'],
      ['logs', 'resolve'],
      ['logs', 'lines'],
      ['translations', 'locales'],
      ['translations', 'keys'],
      ['translations', 'import'],
      ['translations', 'export'],
      ['translations', 'missing'],
    ];
    const runs = await Promise.all(commands.map((command) => signpost([...command, '--help'])));
    for (const [index, run] of runs.entries()) {
      assert.equal(run.status, 0, `${commands[index]!.join(' ')} --help`);
      assert.match(run.stdout, /Usage: signpost/, commands[index]!.join(' '));
    }
  });

  it('signs in with a personal access token, saved per server with mode 0600', async () => {
    const bad = await signpost(['login', '--token', 'sp_pat_not_a_real_token', '--url', cli.server.origin]);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /Invalid personal access token/);

    const notSignedIn = await signpost(['whoami', '--url', cli.server.origin]);
    assert.equal(notSignedIn.status, 3);
    assert.match(notSignedIn.stderr, /Not signed in/);

    const login = await ok(['login', '--token', '-', '--url', `${cli.server.origin}/`], { stdin: `${cli.token}\n` });
    assert.match(login.stdout, /Signed in to http:\/\/127\.0\.0\.1:\d+ as ada@example\.com/);
    const file = join(cli.home, 'config', 'config.json');
    if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(saved.servers[cli.server.origin].token, cli.token);

    const me = await json(['whoami']);
    assert.equal(me.account.email, 'ada@example.com');
    assert.equal(me.url, cli.server.origin);
  });

  it('signs up and signs in with e-mail and password, keeping only a personal access token', async () => {
    const configDir = join(cli.home, 'eve');
    const signup = await signpost(
      ['signup', '--email', 'eve@example.com', '--name', 'Eve', '--password-stdin', '--url', cli.server.origin],
      {
        configDir,
        stdin: 'a long enough password\n',
      },
    );
    assert.equal(signup.status, 0, signup.stderr);
    assert.match(signup.stdout, /Signed in to .* as eve@example\.com/);
    assert.match(signup.stdout, /Check your e-mail: a verification link went to eve@example\.com/);
    const saved = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
    assert.match(saved.servers[cli.server.origin].token, /^sp_pat_/);
    const tokens = await fetch(`${cli.server.origin}/api/v1/me/tokens`, {
      headers: { authorization: `Bearer ${saved.servers[cli.server.origin].token}` },
    });
    const listed = (await tokens.json()) as { tokens: Array<{ name: string }> };
    assert.match(listed.tokens[0]!.name, /^signpost CLI \(/);

    const wrong = await signpost(['login', '--email', 'eve@example.com', '--password-stdin'], {
      configDir,
      stdin: 'not the password\n',
    });
    assert.equal(wrong.status, 1);
    assert.match(wrong.stderr, /Wrong e-mail address or password/);
    const again = await signpost(['login', '--email', 'eve@example.com', '--password-stdin'], {
      configDir,
      stdin: 'a long enough password\n',
    });
    assert.equal(again.status, 0, again.stderr);
    assert.equal((await signpost(['whoami', '--json'], { configDir })).status, 0);
    // A taken address: the server's answer is the one a new address gets; signing in tells.
    const taken = await signpost(['signup', '--email', 'eve@example.com', '--password-stdin'], {
      configDir,
      stdin: "someone else's long password\n",
    });
    assert.equal(taken.status, 1);
    assert.match(
      taken.stderr,
      /Could not sign in as eve@example\.com\. If this address already has an account, an e-mail went to it/,
    );
    const owner = await signpost(['signup', '--email', 'eve@example.com', '--password-stdin'], {
      configDir,
      stdin: 'a long enough password\n',
    });
    assert.equal(owner.status, 0, owner.stderr);
    const weak = await signpost(['signup', '--email', 'weak@example.com', '--password-stdin'], {
      configDir,
      stdin: 'password123!\n',
    });
    assert.equal(weak.status, 1);
    assert.match(weak.stderr, /too easy to guess/);
    assert.equal((await signpost(['login'], { configDir })).status, 2);
  });

  it('runs migrations and starts the server next to it', async (t) => {
    const data = join(cli.home, 'server-data');
    const migrated = await ok(['server', 'migrate', '--data-dir', data]);
    assert.match(migrated.stdout, /Applied \d+ migration/);
    assert.match((await ok(['server', 'migrate', '--data-dir', data])).stdout, /up to date/);

    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env))
      if (!name.startsWith('SIGNPOST_') && value !== undefined) env[name] = value;
    const child = spawn(
      process.execPath,
      [cliEntry, 'server', 'start', '--port', '0', '--host', '127.0.0.1', '--data-dir', data],
      {
        env: { ...env, LOG_LEVEL: 'info', DEMO_ENABLED: 'false' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    // A failed assertion must not leave the server running: its open pipes kept this file's process
    // (and the CLI's whole test run) waiting until the lane's end.
    t.after(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM'); // passed on to the server
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const origin = await new Promise<string>((resolve, reject) => {
      // The server loads its TypeScript at start: on npm test's loaded machine (three lanes on two
      // cores) that took over 30 s once, alone 14 s.
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 90_000);
      child.stdout.on('data', () => {
        const match = /"address":"(http:\/\/[^"]+)"/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
    });
    assert.equal((await fetch(`${origin}/healthz`)).status, 200);
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exit, 0);
  });
});

/**
 * `signpost mcp setup` against fake homes whose editors already have MCP configs: legacy entries,
 * comments, line endings, links, and files it must leave alone.
 */
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CURSOR_WITH_LEGACY, expectedDocsEntry, HOSTED, PLATFORMS, parse } from './mcp-setup-support.ts';
import { ALL_EDITORS, fakeMachine, signpost, snapshot } from './support.ts';

describe('mcp setup: existing configs', () => {
  for (const platform of PLATFORMS) {
    it(`${platform}: replaces the legacy "service" docs entry, keeps other servers and comments, and backs up`, () => {
      const m = fakeMachine(platform, ['cursor']);
      try {
        m.write('cursor', CURSOR_WITH_LEGACY);
        const r = signpost(m, ['mcp', 'setup']);
        assert.equal(r.status, 0, r.stdout);
        const text = m.read('cursor');
        const after = parse(text);
        const before = parse(CURSOR_WITH_LEGACY);
        assert.deepEqual(
          Object.keys(after.mcpServers),
          ['github', 'service-docs', 'linear'],
          'renamed in place, no duplicate',
        );
        assert.equal(after.mcpServers.service, undefined);
        assert.deepEqual(after.mcpServers['service-docs'], expectedDocsEntry('cursor', platform));
        assert.deepEqual(after.mcpServers.github, before.mcpServers.github);
        assert.deepEqual(after.mcpServers.linear, before.mcpServers.linear);
        assert.deepEqual(after.somethingElse, before.somethingElse);
        for (const comment of ['// Servers for this machine', '/* GitHub, with a token */', '// keep me'])
          assert.ok(text.includes(comment), comment);
        assert.ok(
          text.includes('"args": ["run", "-i", "--rm", "ghcr.io/github/github-mcp-server"]'),
          'formatting of other entries kept',
        );
        assert.match(r.stdout, /replaced the legacy "service" entry \(it ran the docs server\) with "service-docs"/);
        assert.match(r.stdout, /kept the 2 other servers as they were: "github", "linear"/);
        const backup = /backup of the previous file: (.+)/.exec(r.stdout)?.[1];
        assert.ok(backup, 'names the backup');
        assert.equal(readFileSync(backup, 'utf8'), CURSOR_WITH_LEGACY);
        assert.match(r.stdout, /Restart Cursor/);
      } finally {
        m.remove();
      }
    });
  }

  it('removes the legacy entry when service-docs already exists (no duplicate)', () => {
    const m = fakeMachine('darwin', ['windsurf']);
    try {
      m.write(
        'windsurf',
        JSON.stringify(
          {
            mcpServers: {
              service: { command: 'cmd', args: ['/c', 'npx', '-y', '@signpost/docs-mcp'] },
              'service-docs': { command: 'npx', args: ['-y', '@signpost/docs-mcp@latest'] },
            },
          },
          null,
          2,
        ),
      );
      const r = signpost(m, ['mcp', 'setup']);
      assert.equal(r.status, 0);
      assert.deepEqual(parse(m.read('windsurf')), {
        mcpServers: { 'service-docs': expectedDocsEntry('windsurf', 'darwin') },
      });
      assert.match(r.stdout, /removed the legacy "service" entry/);
    } finally {
      m.remove();
    }
  });

  it('leaves a "service" entry that points at the hosted MCP server exactly as it was', () => {
    const m = fakeMachine('linux', ['claude-desktop', 'vscode']);
    try {
      const claude = `{\n  "mcpServers": {\n    "service": { "command": "npx", "args": ["mcp-remote", "${HOSTED}"] }\n  },\n  "globalShortcut": "Ctrl+Space"\n}\n`;
      const vscode = `{\n\t"servers": {\n\t\t"service": { "type": "http", "url": "${HOSTED}" }\n\t},\n\t"inputs": []\n}\n`;
      m.write('claude-desktop', claude);
      m.write('vscode', vscode);
      const r = signpost(m, ['mcp', 'setup']);
      assert.equal(r.status, 0);
      const c = parse(m.read('claude-desktop'));
      assert.deepEqual(c.mcpServers.service, parse(claude).mcpServers.service);
      assert.equal(c.globalShortcut, 'Ctrl+Space');
      assert.ok(c.mcpServers['service-docs']);
      const v = m.read('vscode');
      assert.ok(v.includes(`\t\t"service": { "type": "http", "url": "${HOSTED}" }`), 'hosted entry byte for byte');
      assert.match(v, /\n\t\t"service-docs": \{\n\t\t\t"type": "stdio",/, "new entry indented with the file's tabs");
      assert.match(
        r.stdout,
        /left "service" as it was: it points at the hosted MCP server \(https:\/\/signpost\.example\.com\/mcp\)/,
      );
    } finally {
      m.remove();
    }
  });

  it('leaves an unrelated "service" entry alone and says so', () => {
    const m = fakeMachine('linux', ['cursor']);
    try {
      m.write('cursor', '{"mcpServers":{"service":{"command":"python","args":["my_server.py"]}}}');
      const r = signpost(m, ['mcp', 'setup']);
      assert.equal(r.status, 0);
      const after = parse(m.read('cursor'));
      assert.deepEqual(after.mcpServers.service, { command: 'python', args: ['my_server.py'] });
      assert.ok(after.mcpServers['service-docs']);
      assert.match(r.stdout, /left "service" as it was: it does not run the Signpost docs server/);
    } finally {
      m.remove();
    }
  });

  it('windows: updates an existing service-docs in place to go through cmd /c, keeping its env', () => {
    const m = fakeMachine('win32', ['cursor']);
    try {
      m.write(
        'cursor',
        '{\n  "mcpServers": {\n    "service-docs": {\n      "command": "npx",\n      "args": ["-y", "@signpost/docs-mcp@latest"],\n      "env": { "A": "1" }\n    }\n  }\n}\n',
      );
      const r = signpost(m, ['mcp', 'setup']);
      assert.equal(r.status, 0);
      const after = parse(m.read('cursor'));
      assert.deepEqual(after.mcpServers['service-docs'], {
        command: 'cmd',
        args: ['/c', 'npx', '-y', '@signpost/docs-mcp@latest'],
        env: { A: '1' },
      });
      assert.match(r.stdout, /updated "service-docs" in place \(cmd \/c npx -y @signpost\/docs-mcp@latest\)/);
    } finally {
      m.remove();
    }
  });

  it('keeps CRLF line endings and a byte-order mark', () => {
    const m = fakeMachine('win32', ['windsurf']);
    try {
      m.write('windsurf', '\uFEFF{\r\n    "mcpServers": {\r\n        "a": { "command": "x" }\r\n    }\r\n}\r\n');
      assert.equal(signpost(m, ['mcp', 'setup']).status, 0);
      const text = m.read('windsurf');
      assert.ok(
        text.startsWith(
          '\uFEFF{\r\n    "mcpServers": {\r\n        "a": { "command": "x" },\r\n        "service-docs": {\r\n            "command": "cmd",',
        ),
        JSON.stringify(text),
      );
      assert.doesNotMatch(text.replace(/\r\n/g, ''), /\n/);
    } finally {
      m.remove();
    }
  });

  it('writes through a symlinked config file, keeping the link', () => {
    const m = fakeMachine('linux', ['cursor']);
    try {
      const real = join(m.root, 'dotfiles', 'cursor-mcp.json');
      mkdirSync(join(m.root, 'dotfiles'));
      writeFileSync(real, '{ "mcpServers": {} }\n');
      symlinkSync(real, m.files.cursor);
      assert.equal(signpost(m, ['mcp', 'setup']).status, 0);
      assert.ok(lstatSync(m.files.cursor).isSymbolicLink());
      assert.ok(parse(readFileSync(real, 'utf8')).mcpServers['service-docs']);
    } finally {
      m.remove();
    }
  });

  it('a second run changes nothing: same bytes, no new backup', () => {
    const m = fakeMachine('darwin', ALL_EDITORS);
    try {
      m.write('cursor', CURSOR_WITH_LEGACY);
      assert.equal(signpost(m, ['mcp', 'setup', '--hosted', HOSTED]).status, 0);
      const first = snapshot(m.root);
      const r = signpost(m, ['mcp', 'setup', '--hosted', HOSTED]);
      assert.equal(r.status, 0);
      assert.deepEqual(snapshot(m.root), first);
      assert.match(r.stdout, /Everything was already up to date; no file was changed\./);
      assert.doesNotMatch(r.stdout, /Restart/);
    } finally {
      m.remove();
    }
  });

  it("an invalid file or a directory in the file's place is left alone, explained, and the others still set up", () => {
    const m = fakeMachine('linux', ['cursor', 'windsurf', 'vscode']);
    try {
      m.write('cursor', '{ "mcpServers": { "a": } }');
      mkdirSync(m.files.windsurf);
      const r = signpost(m, ['mcp', 'setup']);
      assert.equal(r.status, 1);
      assert.equal(m.read('cursor'), '{ "mcpServers": { "a": } }');
      assert.match(
        r.stdout,
        /- Cursor: .*mcp\.json was left alone because it is not valid JSON \(ValueExpected at line 1, column 24\)/,
      );
      assert.match(r.stdout, /- Windsurf: .*mcp_config\.json was left alone because it is a directory, not a file/);
      assert.ok(parse(m.read('vscode')).servers['service-docs']);
      assert.match(r.stdout, /Restart VS Code so it loads/);
    } finally {
      m.remove();
    }
  });
});

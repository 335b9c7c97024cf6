/**
 * `signpost mcp setup` run as a process against fake homes laid out like macOS, Linux and Windows:
 * which editors it finds and where it writes, Claude Desktop's packaged Windows install, and the options.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  CURSOR_WITH_LEGACY,
  expectedDocsEntry,
  HOSTED,
  NAMES,
  PLATFORMS,
  parse,
  serversKey,
} from './mcp-setup-support.ts';
import { ALL_EDITORS, fakeMachine, signpost, snapshot } from './support.ts';

describe('mcp setup: detection on each operating system', () => {
  for (const platform of PLATFORMS) {
    for (const editor of ALL_EDITORS) {
      it(`${platform}: only ${editor} installed`, () => {
        const m = fakeMachine(platform, [editor]);
        try {
          const r = signpost(m, ['mcp', 'setup']);
          assert.equal(r.status, 0, r.stderr + r.stdout);
          const config = parse(m.read(editor));
          assert.deepEqual(config, { [serversKey(editor)]: { 'service-docs': expectedDocsEntry(editor, platform) } });
          assert.match(r.stdout, new RegExp(`Restart ${NAMES[editor]} so it loads`));
          for (const other of ALL_EDITORS.filter((e) => e !== editor)) {
            assert.match(
              r.stdout,
              new RegExp(`- ${NAMES[other]}: not installed \\(no .*\\)\\.`),
              `explains ${other} was not found`,
            );
          }
          // The only file written is the one config file.
          assert.deepEqual(Object.keys(snapshot(m.root)), [m.files[editor].slice(m.root.length + 1)]);
        } finally {
          m.remove();
        }
      });
    }

    it(`${platform}: every editor installed`, () => {
      const m = fakeMachine(platform, ALL_EDITORS);
      try {
        const r = signpost(m, ['mcp', 'setup']);
        assert.equal(r.status, 0, r.stderr + r.stdout);
        for (const editor of ALL_EDITORS) {
          assert.deepEqual(
            parse(m.read(editor))[serversKey(editor)]['service-docs'],
            expectedDocsEntry(editor, platform),
          );
        }
        assert.match(
          r.stdout,
          /Restart Claude Desktop, Cursor, VS Code and Windsurf so they load the new MCP configuration\./,
        );
        assert.doesNotMatch(r.stdout, /Not done/);
      } finally {
        m.remove();
      }
    });

    it(`${platform}: no editor installed writes nothing and says so`, () => {
      const m = fakeMachine(platform);
      try {
        const before = m.tree();
        const r = signpost(m, ['mcp', 'setup']);
        assert.equal(r.status, 0);
        assert.match(r.stdout, /No supported editor was found/);
        assert.deepEqual(m.tree(), before);
      } finally {
        m.remove();
      }
    });
  }

  it('linux: honours XDG_CONFIG_HOME', () => {
    const m = fakeMachine('linux');
    try {
      const xdg = join(m.root, 'xdg');
      mkdirSync(join(xdg, 'Claude'), { recursive: true });
      const r = signpost(m, ['mcp', 'setup'], { env: { XDG_CONFIG_HOME: xdg } });
      assert.equal(r.status, 0);
      assert.ok(
        parse(readFileSync(join(xdg, 'Claude', 'claude_desktop_config.json'), 'utf8')).mcpServers['service-docs'],
      );
    } finally {
      m.remove();
    }
  });
});

describe("mcp setup: Claude Desktop's packaged (MSIX) Windows install", () => {
  const pkg = (m: ReturnType<typeof fakeMachine>, name = 'Claude_pzs8sxrjxfjjc') =>
    join(m.env['LOCALAPPDATA']!, 'Packages', name);
  const pkgConfig = (m: ReturnType<typeof fakeMachine>, name?: string) =>
    join(pkg(m, name), 'LocalCache', 'Roaming', 'Claude', 'claude_desktop_config.json');

  it('writes under %LOCALAPPDATA%\\Packages\\Claude_*\\LocalCache\\Roaming\\Claude', () => {
    const m = fakeMachine('win32');
    try {
      mkdirSync(pkg(m), { recursive: true });
      const r = signpost(m, ['mcp', 'setup']);
      assert.equal(r.status, 0, r.stdout);
      assert.deepEqual(
        parse(readFileSync(pkgConfig(m), 'utf8')).mcpServers['service-docs'],
        expectedDocsEntry('claude-desktop', 'win32'),
      );
      assert.match(r.stdout, /Restart Claude Desktop/);
    } finally {
      m.remove();
    }
  });

  it('leaves the %APPDATA% file the packaged app does not read, and says why', () => {
    const m = fakeMachine('win32');
    try {
      mkdirSync(pkg(m), { recursive: true });
      m.write('claude-desktop', '{ "mcpServers": {} }\n');
      const r = signpost(m, ['mcp', 'setup']);
      assert.equal(r.status, 0);
      assert.equal(m.read('claude-desktop'), '{ "mcpServers": {} }\n');
      assert.ok(parse(readFileSync(pkgConfig(m), 'utf8')).mcpServers['service-docs']);
      assert.match(r.stdout, /packaged \(Microsoft Store\/MSIX\) app, which does not read .*left as is/);
    } finally {
      m.remove();
    }
  });

  it('with several packages, uses the one that has a config file, else changes nothing and explains', () => {
    const m = fakeMachine('win32');
    try {
      mkdirSync(pkg(m, 'Claude_aaaa'), { recursive: true });
      mkdirSync(pkg(m, 'Claude_bbbb'), { recursive: true });
      let r = signpost(m, ['mcp', 'setup']);
      assert.match(r.stdout, /Claude Desktop: several packaged installs found/);
      assert.deepEqual(Object.keys(snapshot(m.root)), []);
      mkdirSync(join(pkg(m, 'Claude_bbbb'), 'LocalCache', 'Roaming', 'Claude'), { recursive: true });
      writeFileSync(pkgConfig(m, 'Claude_bbbb'), '{}');
      r = signpost(m, ['mcp', 'setup']);
      assert.equal(r.status, 0);
      assert.ok(parse(readFileSync(pkgConfig(m, 'Claude_bbbb'), 'utf8')).mcpServers['service-docs']);
    } finally {
      m.remove();
    }
  });
});

describe('mcp setup: options', () => {
  it('--dry-run shows a diff and writes nothing', () => {
    const m = fakeMachine('darwin', ['cursor', 'vscode']);
    try {
      m.write('cursor', CURSOR_WITH_LEGACY);
      const before = snapshot(m.root);
      const tree = m.tree();
      const r = signpost(m, ['mcp', 'setup', '--dry-run']);
      assert.equal(r.status, 0);
      assert.deepEqual(snapshot(m.root), before);
      assert.deepEqual(m.tree(), tree, 'no file, backup or directory created');
      assert.match(r.stdout, new RegExp(`--- ${m.files.cursor.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      assert.match(r.stdout, /^ {4}- {4}"service": \{$/m);
      assert.match(r.stdout, /^ {4}\+ {4}"service-docs": \{$/m);
      assert.match(r.stdout, /--- \/dev\/null/);
      assert.match(r.stdout, /would create the file/);
      assert.match(r.stdout, /Dry run: 2 file\(s\) would change; nothing was written\./);
      assert.doesNotMatch(r.stdout, /Restart/);
    } finally {
      m.remove();
    }
  });

  it('--hosted adds the hosted server as service for editors that support remote servers', () => {
    const m = fakeMachine('linux', ALL_EDITORS);
    try {
      const r = signpost(m, ['mcp', 'setup', '--hosted', HOSTED]);
      assert.equal(r.status, 0);
      assert.deepEqual(parse(m.read('cursor')).mcpServers.service, { url: HOSTED });
      assert.deepEqual(parse(m.read('windsurf')).mcpServers.service, { serverUrl: HOSTED });
      assert.deepEqual(parse(m.read('vscode')).servers.service, { type: 'http', url: HOSTED });
      assert.equal(parse(m.read('claude-desktop')).mcpServers.service, undefined);
      assert.match(
        r.stdout,
        /- Claude Desktop: did not add the hosted server: Claude Desktop adds remote MCP servers only in its app \(Settings > Connectors\)/,
      );
    } finally {
      m.remove();
    }
  });

  it('--hosted does not overwrite a service entry pointing elsewhere', () => {
    const m = fakeMachine('linux', ['cursor']);
    try {
      m.write('cursor', '{"mcpServers":{"service":{"url":"https://old.example.com/mcp"}}}');
      const r = signpost(m, ['mcp', 'setup', '--hosted', HOSTED]);
      assert.equal(parse(m.read('cursor')).mcpServers.service.url, 'https://old.example.com/mcp');
      assert.match(r.stdout, /did not change "service": it already points at https:\/\/old\.example\.com\/mcp/);
    } finally {
      m.remove();
    }
  });

  it('--hosted rejects a value that is not an http(s) URL', () => {
    const m = fakeMachine('linux', ['cursor']);
    try {
      const r = signpost(m, ['mcp', 'setup', '--hosted', 'ftp://x']);
      assert.notEqual(r.status, 0);
      assert.match(r.stderr, /not an http\(s\) URL/);
      assert.deepEqual(Object.keys(snapshot(m.root)), []);
    } finally {
      m.remove();
    }
  });

  for (const platform of PLATFORMS) {
    it(`${platform}: --project writes .cursor/mcp.json and .vscode/mcp.json with the portable npx command`, () => {
      const m = fakeMachine(platform, ['cursor']);
      try {
        const project = join(m.root, 'work', 'app');
        mkdirSync(join(project, '.vscode'), { recursive: true });
        writeFileSync(join(project, '.vscode', 'mcp.json'), '{\n  // team servers\n  "servers": {}\n}\n');
        const r = signpost(m, ['mcp', 'setup', '--project', project]);
        assert.equal(r.status, 0, r.stdout);
        const plain = { command: 'npx', args: ['-y', '@signpost/docs-mcp@latest'] };
        assert.deepEqual(parse(readFileSync(join(project, '.cursor', 'mcp.json'), 'utf8')), {
          mcpServers: { 'service-docs': plain },
        });
        const vscode = readFileSync(join(project, '.vscode', 'mcp.json'), 'utf8');
        assert.ok(vscode.includes('// team servers'));
        assert.deepEqual(parse(vscode).servers['service-docs'], { type: 'stdio', ...plain });
        assert.deepEqual(
          parse(m.read('cursor')).mcpServers['service-docs'],
          expectedDocsEntry('cursor', platform),
          'user config too',
        );
        assert.match(r.stdout, /Cursor \(project\): .*\.cursor[/\\]mcp\.json/);
        assert.match(r.stdout, /- Claude Desktop \(project\): Claude Desktop has no project-level MCP config file\./);
      } finally {
        m.remove();
      }
    });
  }

  it('--project with --no-user and --editor writes only that project file', () => {
    const m = fakeMachine('darwin', ALL_EDITORS);
    try {
      const project = join(m.root, 'app');
      mkdirSync(project);
      const r = signpost(m, ['mcp', 'setup', '--project', project, '--no-user', '--editor', 'vscode']);
      assert.equal(r.status, 0, r.stdout);
      assert.deepEqual(Object.keys(snapshot(m.root)), ['app/.vscode/mcp.json']);
    } finally {
      m.remove();
    }
  });

  it('--editor limits the editors and rejects unknown names', () => {
    const m = fakeMachine('linux', ALL_EDITORS);
    try {
      let r = signpost(m, ['mcp', 'setup', '--editor', 'cursor', '--editor', 'windsurf']);
      assert.equal(r.status, 0);
      assert.deepEqual(
        Object.keys(snapshot(m.root)).sort(),
        [m.files.cursor, m.files.windsurf].map((f) => f.slice(m.root.length + 1)).sort(),
      );
      r = signpost(m, ['mcp', 'setup', '--editor', 'vim']);
      assert.notEqual(r.status, 0);
      assert.match(r.stderr, /unknown editor "vim"/);
    } finally {
      m.remove();
    }
  });

  it('help lists the options but not the hidden --platform', () => {
    const m = fakeMachine('linux');
    try {
      const r = signpost(m, ['mcp', 'setup', '--help']);
      assert.equal(r.status, 0);
      for (const flag of ['--dry-run', '--hosted <url>', '--project <dir>', '--editor <name>', '--no-user'])
        assert.ok(r.stdout.includes(flag), flag);
      assert.ok(!r.stdout.includes('--platform'));
    } finally {
      m.remove();
    }
  });
});

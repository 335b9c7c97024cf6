/** Unit tests of the pieces of `mcp setup`: JSONC edits, the legacy/hosted classifier and the diff. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unifiedDiff } from '../src/mcp-setup/diff.ts';
import { classifyService } from '../src/mcp-setup/entries.ts';
import { JsoncDocument } from '../src/mcp-setup/jsonc.ts';

function edit(text: string, fn: (doc: JsoncDocument) => void): string {
  const doc = new JsoncDocument(text);
  fn(doc);
  assert.deepEqual(JsoncDocument.errors(doc.text), [], `still valid: ${doc.text}`);
  return doc.text;
}

describe('JsoncDocument', () => {
  it('inserts into an empty document and an empty object', () => {
    assert.equal(
      edit('{}', (d) => d.set(['mcpServers', 'x'], { command: 'npx' })),
      '{\n  "mcpServers": {\n    "x": {\n      "command": "npx"\n    }\n  }\n}',
    );
    assert.equal(
      edit('{\n  "servers": {}\n}\n', (d) => d.set(['servers', 'x'], 1)),
      '{\n  "servers": {\n    "x": 1\n  }\n}\n',
    );
  });

  it('appends after the last property without touching its line', () => {
    const text = '{\n  "a": { "command": "x" } // note\n}\n';
    assert.equal(
      edit(text, (d) => d.set(['b'], true)),
      '{\n  "a": { "command": "x" }, // note\n  "b": true\n}\n',
    );
  });

  it('keeps an existing trailing comma', () => {
    assert.equal(
      edit('{\n  "a": 1,\n}', (d) => d.set(['b'], 2)),
      '{\n  "a": 1,\n  "b": 2\n}',
    );
  });

  it("follows the file's indentation and line endings", () => {
    assert.equal(
      edit('{\r\n\t"a": 1\r\n}', (d) => d.set(['b'], [1])),
      '{\r\n\t"a": 1,\r\n\t"b": [\r\n\t\t1\r\n\t]\r\n}',
    );
  });

  it('replaces a value in place', () => {
    assert.equal(
      edit('{\n  "a": { "x": 1, "y": [1] } // c\n}', (d) => d.set(['a', 'y'], [2])),
      '{\n  "a": { "x": 1, "y": [\n    2\n  ] } // c\n}',
    );
  });

  it("removes a first, middle or last property and its comma, keeping the neighbours' lines", () => {
    const text = '{\n  "a": 1, // one\n  "b": 2,\n  "c": { "k": 3 }\n}\n';
    assert.equal(
      edit(text, (d) => d.set(['a'], undefined)),
      '{\n  "b": 2,\n  "c": { "k": 3 }\n}\n',
    );
    assert.equal(
      edit(text, (d) => d.set(['b'], undefined)),
      '{\n  "a": 1, // one\n  "c": { "k": 3 }\n}\n',
    );
    assert.equal(
      edit(text, (d) => d.set(['c'], undefined)),
      '{\n  "a": 1, // one\n  "b": 2\n}\n',
    );
    assert.equal(
      edit('{ "a": 1, "b": 2 }', (d) => d.set(['b'], undefined)),
      '{ "a": 1 }',
    );
    assert.equal(
      edit('{ "a": 1, "b": 2 }', (d) => d.set(['a'], undefined)),
      '{ "b": 2 }',
    );
    assert.equal(
      edit('{\n  "only": 1\n}', (d) => d.set(['only'], undefined)),
      '{\n}',
    );
  });

  it('renames a key in place', () => {
    assert.equal(
      edit('{ /* c */ "service": { "x": 1 } }', (d) => d.renameKey(['service'], 'service-docs')),
      '{ /* c */ "service-docs": { "x": 1 } }',
    );
  });

  it('reports syntax errors with line and column', () => {
    assert.deepEqual(JsoncDocument.errors('{\n  "a": ,\n}'), ['ValueExpected at line 2, column 8']);
    assert.deepEqual(JsoncDocument.errors('{ // c\n "a": 1, }'), []);
  });
});

describe('classifyService', () => {
  it('recognises the docs server under its old name', () => {
    assert.equal(classifyService({ command: 'npx', args: ['-y', '@signpost/docs-mcp@latest'] }), 'legacy-docs');
    assert.equal(classifyService({ command: 'npx', args: ['@signpost/docs-mcp'] }), 'legacy-docs');
    assert.equal(
      classifyService({ command: 'cmd', args: ['/c', 'npx', '-y', '@signpost/docs-mcp@1.2.0'] }),
      'legacy-docs',
    );
    assert.equal(classifyService({ command: 'signpost-docs-mcp' }), 'legacy-docs');
    assert.equal(
      classifyService({ command: 'node', args: ['/usr/lib/node_modules/@signpost/docs-mcp/dist/index.js'] }),
      'legacy-docs',
    );
  });

  it('recognises the hosted server, also through a stdio bridge', () => {
    assert.equal(classifyService({ url: 'https://x.example/mcp' }), 'hosted');
    assert.equal(classifyService({ serverUrl: 'https://x.example/mcp' }), 'hosted');
    assert.equal(classifyService({ type: 'http', url: 'https://x.example/mcp' }), 'hosted');
    assert.equal(classifyService({ command: 'npx', args: ['-y', 'mcp-remote', 'https://x.example/mcp'] }), 'hosted');
  });

  it('leaves everything else as other', () => {
    assert.equal(classifyService({ command: 'npx', args: ['-y', '@signpost/docs-mcp-extra'] }), 'other');
    assert.equal(classifyService({ command: 'python', args: ['server.py'] }), 'other');
    assert.equal(classifyService('nonsense'), 'other');
  });
});

describe('unifiedDiff', () => {
  it('shows changed lines with context and hunk headers', () => {
    const a = `${['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'].join('\n')}\n`;
    const b = a.replace('2\n', 'two\n').replace('9\n', '9\nnine\n');
    assert.equal(
      unifiedDiff(a, b, 'a', 'b', 1),
      ['--- a', '+++ b', '@@ -1,3 +1,3 @@', ' 1', '-2', '+two', ' 3', '@@ -9,2 +9,3 @@', ' 9', '+nine', ' 10'].join(
        '\n',
      ),
    );
    assert.equal(unifiedDiff(a, a, 'a', 'b'), '');
    assert.equal(unifiedDiff('', 'x\n', '/dev/null', 'f'), '--- /dev/null\n+++ f\n@@ -0,0 +1,1 @@\n+x');
  });
});

/** Sanitising changelog descriptions (src/resources/changelog/sanitize.ts), without a server. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sanitizeDescription } from '../../../src/resources/changelog/sanitize.ts';

describe('changelog description sanitising', () => {
  it('keeps formatting, lists, links, images, code and tables', () => {
    const html =
      '<h2>New</h2><p><strong>Bold</strong> <em>and</em> <a href="https://example.com" title="t">a link</a></p>' +
      '<ul><li>one</li></ul><pre><code class="language-ts">let a = 1;</code></pre>' +
      '<img src="https://example.com/a.png" alt="shot"><table><tr><td colspan="2">cell</td></tr></table>';
    // Only the serialisation of the void element changes.
    assert.equal(sanitizeDescription(html), html.replace('alt="shot">', 'alt="shot" />'));
  });

  it('removes scripts, styles, event handlers, iframes and javascript: URLs', () => {
    const out = sanitizeDescription(
      '<p onclick="steal()">Hi<script>alert(1)</script><style>p{}</style></p><iframe src="https://x"></iframe>' +
        '<a href="javascript:alert(1)">x</a><img src="data:image/png;base64,AAAA"><a href="//evil.example">y</a>',
    );
    assert.doesNotMatch(out, /script|style|onclick|iframe|javascript:|data:|evil/i);
    assert.match(out, /<p>Hi<\/p>/);
  });

  it('makes links that open a new tab safe, and drops classes outside the allow-list', () => {
    assert.equal(
      sanitizeDescription('<a href="https://example.com" target="_blank">x</a>'),
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a>',
    );
    assert.equal(sanitizeDescription('<code class="language-js evil">x</code>'), '<code class="language-js">x</code>');
    assert.equal(sanitizeDescription('<span class="hl-keyword big">if</span>'), '<span class="hl-keyword">if</span>');
  });

  it('trims what is left', () => {
    assert.equal(sanitizeDescription('  <p>x</p>\n'), '<p>x</p>');
    assert.equal(sanitizeDescription('<script>only</script>'), '');
  });
});

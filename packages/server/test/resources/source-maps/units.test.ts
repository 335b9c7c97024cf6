/** The pure parts of source maps: the byte-bounded cache, artifact names, debug IDs, comments. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ByteLru } from '../../../src/resources/source-maps/cache.ts';
import { debugIdOfMinified, normaliseDebugId, sourceMappingUrlOf } from '../../../src/resources/source-maps/content.ts';
import { candidateNames, displayName, resolveRelative } from '../../../src/resources/source-maps/names.ts';
import { debugIdsFromDebugMeta } from '../../../src/resources/source-maps/resolve.ts';

describe('source maps: pure parts', () => {
  it('keeps the cache under its byte bound, dropping the least recently used', () => {
    const cache = new ByteLru<string>(100);
    cache.set('a', 'A', 40);
    cache.set('b', 'B', 40);
    assert.equal(cache.get('a'), 'A');
    cache.set('c', 'C', 40);
    assert.equal(cache.get('b'), undefined, 'b was the least recently used');
    assert.equal(cache.get('a'), 'A');
    assert.equal(cache.bytes, 80);
    cache.set('huge', 'H', 101);
    assert.equal(cache.get('huge'), undefined, 'an entry above the bound is not kept');
    assert.equal(cache.bytes, 80);
    cache.set('a', 'A2', 10);
    assert.equal(cache.bytes, 50);
  });

  it('looks a file up under its URL, ~/path and without its query', () => {
    assert.deepEqual(candidateNames('https://shop.example/assets/app.js?v=2'), [
      'https://shop.example/assets/app.js?v=2',
      'https://shop.example/assets/app.js',
      '~/assets/app.js?v=2',
      '~/assets/app.js',
    ]);
    assert.deepEqual(candidateNames('app:///main.js'), ['app:///main.js', '~/main.js']);
    assert.deepEqual(candidateNames('~/a.js'), ['~/a.js']);
    assert.deepEqual(candidateNames('not a url'), ['not a url']);
    assert.equal(resolveRelative('app.js.map', '~/assets/app.js'), '~/assets/app.js.map');
    assert.equal(resolveRelative('../maps/app.js.map', '~/assets/app.js'), '~/maps/app.js.map');
    assert.equal(
      resolveRelative('https://cdn.example/app.js.map', '~/assets/app.js'),
      'https://cdn.example/app.js.map',
    );
    assert.equal(resolveRelative('app.js.map', 'https://shop.example/a/app.js'), 'https://shop.example/a/app.js.map');
    assert.equal(displayName('webpack://shop/./src/cart.ts'), 'src/cart.ts');
    assert.equal(displayName('../src/cart.ts'), 'src/cart.ts');
    assert.equal(displayName('~/src/cart.ts'), 'src/cart.ts');
  });

  it('reads debug IDs and sourceMappingURL comments as bundlers write them', () => {
    const id = '5b1f0c3e-9a41-4d7e-8c2b-71e0d4a9f6b2';
    assert.equal(normaliseDebugId(id.toUpperCase()), id);
    assert.equal(normaliseDebugId(id.replaceAll('-', '')), id);
    assert.equal(normaliseDebugId(`${id}-0`), id);
    assert.equal(normaliseDebugId('nope'), undefined);
    assert.equal(normaliseDebugId(42), undefined);
    const js = `x();\n//# debugId=${id}\n//# sourceMappingURL=app.js.map\n`;
    assert.equal(debugIdOfMinified(js), id);
    assert.equal(sourceMappingUrlOf(js), 'app.js.map');
    assert.equal(sourceMappingUrlOf('x();\n//# sourceMappingURL=data:application/json;base64,e30='), undefined);
    assert.deepEqual(
      debugIdsFromDebugMeta({
        images: [
          { type: 'sourcemap', code_file: 'https://a/app.js', debug_id: id },
          { type: 'elf', code_file: 'x', debug_id: id },
          { type: 'sourcemap', code_file: 'https://a/b.js', debug_id: 'bad' },
          null,
        ],
      }),
      { 'https://a/app.js': id },
    );
    assert.deepEqual(debugIdsFromDebugMeta(undefined), {});
  });
});

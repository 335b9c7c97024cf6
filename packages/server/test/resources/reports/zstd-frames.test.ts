/**
 * The kept zstd context (resources/reports/zstd-frames.ts, issue 31): each event is one complete,
 * independent frame that zstdDecompressSync reads back alone, whatever came before it on the
 * context (larger and smaller inputs, incompressible ones); the frames carry their content size
 * and are, byte for byte, the frames of zstdCompressSync at level 1 told the size; inputs above the kept buffer's limit are left to the caller; and
 * the stored payload (compressPayload) reads back as the event, after the context was let go at
 * rest too.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { constants, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import { releaseMemos } from '../../../src/http/at-rest.ts';
import { compressPayload, decompressPayload } from '../../../src/resources/reports/error-event.ts';
import { zstdFrameBase64 } from '../../../src/resources/reports/zstd-frames.ts';

const event = (n: number, crumbs: number) =>
  JSON.stringify({
    event_id: `${n}`.padStart(32, '0'),
    message: `Checkout ${n} failed`,
    breadcrumbs: {
      values: Array.from({ length: crumbs }, (_, i) => ({ message: `step ${i} of ${n}`, level: 'info' })),
    },
  });

const readBack = (frame: string) => zstdDecompressSync(Buffer.from(frame, 'base64'));

/** The frame content size of a zstd frame header (RFC 8878 3.1.1.1), or undefined without one. */
function contentSize(frame: Buffer): number | undefined {
  assert.equal(frame.readUInt32LE(0), 0xfd2fb528, 'a zstd frame');
  const descriptor = frame[4]!;
  const sizeFlag = descriptor >> 6;
  const single = (descriptor >> 5) & 1;
  const fieldSize = [single ? 1 : 0, 2, 4, 8][sizeFlag]!;
  if (fieldSize === 0) return undefined;
  const at = 5 + (single ? 0 : 1) + [0, 1, 2, 4][descriptor & 3]!;
  if (fieldSize === 1) return frame[at]!;
  if (fieldSize === 2) return frame.readUInt16LE(at) + 256;
  if (fieldSize === 4) return frame.readUInt32LE(at);
  return Number(frame.readBigUInt64LE(at));
}

describe('zstd frames of the kept context', () => {
  it('makes independent frames that read back alone, whatever came before', () => {
    const inputs = [
      Buffer.from(event(1, 50)),
      Buffer.from(event(2, 2000)),
      Buffer.from(event(3, 1)),
      randomBytes(40_000),
      Buffer.from(event(4, 50)),
      Buffer.alloc(0),
      Buffer.from(event(5, 300)),
    ];
    const frames = inputs.map((input) => zstdFrameBase64(input));
    for (const [i, frame] of frames.entries()) {
      assert.ok(frame !== undefined, `input ${i} compressed`);
      const bytes = Buffer.from(frame, 'base64');
      assert.deepEqual(zstdDecompressSync(bytes), inputs[i], `input ${i} reads back`);
      assert.equal(contentSize(bytes), inputs[i]!.length, `input ${i}'s frame tells its size`);
    }
    // The same input twice: the same frame, so nothing of the first call leaks into the second.
    assert.equal(zstdFrameBase64(inputs[0]!), frames[0]);
  });

  it('is the frame zstdCompressSync makes at level 1 told the size', () => {
    const input = Buffer.from(event(6, 50));
    const alone = zstdCompressSync(input, {
      pledgedSrcSize: input.length,
      params: { [constants.ZSTD_c_compressionLevel]: 1 },
    });
    // Byte for byte: the same frame, so what is stored is what was stored before the kept context.
    assert.equal(zstdFrameBase64(input), alone.toString('base64'));
    assert.deepEqual(readBack(zstdFrameBase64(input)!), input);
  });

  it('leaves inputs above its limit to the caller', () => {
    assert.equal(zstdFrameBase64(Buffer.alloc(300 * 1024, 'a')), undefined);
    // And goes on with the next one.
    assert.ok(zstdFrameBase64(Buffer.from(event(7, 10))) !== undefined);
  });

  it('stores events that read back, before and after a rest', () => {
    for (const crumbs of [50, 7000, 50]) {
      const sent = Buffer.from(event(8, crumbs));
      const parsed = JSON.parse(sent.toString('utf8')) as Record<string, unknown>;
      const stored = compressPayload(parsed, sent);
      assert.ok(stored.startsWith('z'));
      assert.deepEqual(decompressPayload(stored), parsed);
      // Serialised again (an event the server changed) and compressed.
      assert.deepEqual(decompressPayload(compressPayload(parsed)), parsed);
      void releaseMemos();
    }
  });
});

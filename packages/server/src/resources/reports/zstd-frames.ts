/**
 * zstd frames from one compression context kept for the process (issue 31). `zstdCompressSync`
 * builds a `ZstdCompress` stream and a native zstd context for every call and closes them after it
 * (node's synchronous zlib API closes its engine after each call): in the browser-event bench's
 * profile that set-up was 6.5 % of a new record's CPU, beside 9 % for compressing itself.
 *
 * Here one `ZstdCompress` stream's native handle is driven synchronously, as node's own
 * synchronous API drives it (lib/zlib.js, processChunkSync): each call gives the whole input with
 * ZSTD_e_end, so it is one complete, independent frame (zstd starts the next call's frame afresh
 * on the same context, its tables and buffers reused). Given the whole input at once with
 * ZSTD_e_end, zstd takes its length as the frame's content size, as `pledgedSrcSize` told it, and
 * with room for the worst case it compresses in one pass into the output buffer. The frames are
 * ordinary ones: `zstdDecompressSync` reads each back alone.
 *
 * The handle (`_handle`, `_writeState`) is not node's documented API. So the context is checked
 * when it is made (a frame of it must read back), and whatever fails (no such handle in another
 * node, an error of zstd, an unfinished frame) leaves it for good: the caller then compresses with
 * `zstdCompressSync`, as before. The context and its buffer are let go while the server rests
 * (http/at-rest.ts) and made again by the next event.
 */
import { constants, createZstdCompress, type ZstdCompress, zstdDecompressSync } from 'node:zlib';
import { releasedAtRest } from '../../http/at-rest.ts';

/** The native handle of a zlib stream, as lib/zlib.js calls it. */
interface ZstdHandle {
  writeSync(
    flush: number,
    input: Uint8Array,
    inputOffset: number,
    inputLength: number,
    output: Uint8Array,
    outputOffset: number,
    outputLength: number,
  ): void;
}

/**
 * Inputs above this are compressed by `zstdCompressSync`: the kept buffer (the largest input's
 * worst case) stays small, and a rare large event does not grow the kept context's window.
 */
const MAX_INPUT = 256 * 1024;

/** zstd's worst case for `n` bytes (ZSTD_COMPRESSBOUND) and some room: one pass, never a full buffer. */
const bound = (n: number) => n + (n >>> 8) + (n < 128 * 1024 ? (128 * 1024 - n) >>> 11 : 0) + 64;

class FrameCompressor {
  private readonly stream: ZstdCompress;
  private readonly handle: ZstdHandle;
  /** [output bytes left, input bytes left] after each write (lib/zlib.js's `_writeState`). */
  private readonly state: Uint32Array;
  private output = Buffer.allocUnsafe(bound(32 * 1024));

  constructor(level: number) {
    this.stream = createZstdCompress({ params: { [constants.ZSTD_c_compressionLevel]: level } });
    // zstd's errors destroy the stream (seen below as `destroyed`); its 'error' is then not thrown.
    this.stream.on('error', () => {});
    const internals = this.stream as unknown as { _handle?: ZstdHandle; _writeState?: Uint32Array };
    if (typeof internals._handle?.writeSync !== 'function' || !(internals._writeState instanceof Uint32Array)) {
      throw new Error('No zstd handle to reuse');
    }
    this.handle = internals._handle;
    this.state = internals._writeState;
  }

  /** The input as one zstd frame, base64; undefined if this context cannot be used (any more). */
  base64(input: Uint8Array): string | undefined {
    const room = bound(input.length);
    if (this.output.length < room) this.output = Buffer.allocUnsafe(room);
    try {
      this.handle.writeSync(constants.ZSTD_e_end, input, 0, input.length, this.output, 0, this.output.length);
    } catch {
      return undefined;
    }
    const [outputLeft, inputLeft] = this.state as unknown as [number, number];
    // An error, or a frame not ended with the room for the worst case: the context is not reused.
    if (this.stream.destroyed || inputLeft !== 0 || outputLeft === 0) return undefined;
    return this.output.toString('base64', 0, this.output.length - outputLeft);
  }

  close(): void {
    this.stream.destroy();
  }
}

/** The level of every event's frame (error-event.ts). */
const LEVEL = 1;

/** The kept context, let go while the server rests (held here: the rest registry holds it weakly). */
const kept = releasedAtRest({
  compressor: undefined as FrameCompressor | undefined,
  release() {
    this.compressor?.close();
    this.compressor = undefined;
  },
});
/** Set once the kept context failed: every frame is then made by the caller. */
let unusable = false;

/** A context that compresses a sample into a frame that reads back, or none. */
function made(): FrameCompressor | undefined {
  try {
    const made = new FrameCompressor(LEVEL);
    const sample = Buffer.from('{"check":"a frame of the kept zstd context reads back"}');
    const frame = made.base64(sample);
    if (frame !== undefined && zstdDecompressSync(Buffer.from(frame, 'base64')).equals(sample)) return made;
    made.close();
  } catch {
    // No reusable handle in this node: the callers compress as before.
  }
  unusable = true;
  return undefined;
}

/**
 * `input` as one zstd frame at level 1, in base64, from the kept context; undefined where the
 * caller compresses it itself (a large input, or no context to reuse).
 */
export function zstdFrameBase64(input: Uint8Array): string | undefined {
  if (unusable || input.length > MAX_INPUT) return undefined;
  kept.compressor ??= made();
  if (!kept.compressor) return undefined;
  const frame = kept.compressor.base64(input);
  if (frame === undefined) {
    kept.compressor.close();
    kept.compressor = undefined;
    unusable = true;
  }
  return frame;
}

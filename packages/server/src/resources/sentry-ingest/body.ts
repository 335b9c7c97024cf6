/**
 * Request bodies as Sentry SDKs send them: raw bytes, compressed with gzip, deflate or brotli
 * (`Content-Encoding`), or not at all. Decompression stops at DECOMPRESSED_LIMIT, so a small
 * body that inflates to gigabytes (a decompression bomb) costs no more than that.
 */
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw } from 'node:zlib';
import { BadRequestError, HttpError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../../kernel/errors.ts';

/** The compressed body's limit: the server's usual 1 MiB (Fastify's bodyLimit, app.ts). */
export const BODY_LIMIT = 1024 * 1024;
/** What a body may inflate to. Sentry's own limit for an event is 1 MB; envelopes carry a few. */
export const DECOMPRESSED_LIMIT = 4 * 1024 * 1024;

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);
const inflateRawAsync = promisify(inflateRaw);
const brotliAsync = promisify(brotliDecompress);

function tooLarge(error: unknown): boolean {
  return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError;
}

export async function decodeBody(body: Buffer, contentEncoding: string | undefined): Promise<Buffer> {
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  const options = { maxOutputLength: DECOMPRESSED_LIMIT };
  try {
    switch (encoding) {
      case '':
      case 'identity':
        return body;
      case 'gzip':
      case 'x-gzip':
        return await gunzipAsync(body, options);
      case 'deflate':
        // RFC 9110 deflate is zlib-wrapped; some clients send the raw stream.
        return body[0] !== undefined && (body[0] & 0x0f) === 8
          ? await inflateAsync(body, options).catch((error: unknown) => {
              if (tooLarge(error)) throw error;
              return inflateRawAsync(body, options);
            })
          : await inflateRawAsync(body, options);
      case 'br':
        return await brotliAsync(body, options);
      default:
        throw new UnsupportedMediaTypeError(`Unsupported Content-Encoding: ${encoding}`);
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (tooLarge(error)) {
      throw new PayloadTooLargeError(
        `Request body is too large once decompressed (limit ${DECOMPRESSED_LIMIT / 1024 / 1024} MiB)`,
      );
    }
    throw new BadRequestError(`Malformed body: not valid ${encoding} data`);
  }
}

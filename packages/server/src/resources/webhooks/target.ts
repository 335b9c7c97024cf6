/**
 * Sends one webhook POST, guarded against server-side request forgery: the host name is resolved
 * here, every address it resolves to is checked (loopback, private, link-local, unique-local,
 * multicast and other non-public ranges are refused unless WEBHOOKS_ALLOW_PRIVATE_TARGETS), and
 * the connection goes to the address that was checked (a custom `lookup`, so a second resolution
 * cannot swap in another address: no DNS rebinding). TLS still verifies the certificate against
 * the host name. Redirects are not followed (a 3xx is a failed attempt).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why a target is refused before any connection is made. */
export class TargetRefused extends Error {}

/** True for an address a webhook may reach without WEBHOOKS_ALLOW_PRIVATE_TARGETS: public unicast only. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

export interface SendInput {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
}

export interface SendResult {
  /** The HTTP status, or null when no answer came (refused target, DNS, connection, timeout). */
  status: number | null;
  responseMs: number;
  /** Set when the attempt failed: the reason, with the start of the answer's body when there was one. */
  error: string | null;
}

/** The checked address of the URL's host; throws TargetRefused for a private one (unless allowed). */
async function resolveTarget(url: URL, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host)
    ? [{ address: host, family: host.includes(':') ? 6 : 4 }]
    : await dnsLookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new TargetRefused(`${host} does not resolve`);
  if (!allowPrivate) {
    const blocked = addresses.find((entry) => !isPublicAddress(entry.address));
    if (blocked) {
      throw new TargetRefused(
        `refused: ${host} resolves to ${blocked.address}, a loopback or private address (WEBHOOKS_ALLOW_PRIVATE_TARGETS is off)`,
      );
    }
  }
  return addresses[0]!;
}

export async function sendWebhook(input: SendInput): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(input.url);
  let target: { address: string; family: number };
  try {
    target = await resolveTarget(url, input.allowPrivate);
  } catch (error) {
    return { status: null, responseMs: elapsed(), error: error instanceof Error ? error.message : String(error) };
  }
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        // A connection of its own: no pooled socket is shared between endpoints or attempts.
        agent: false,
        headers: {
          ...input.headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(input.body)),
          'user-agent': 'Signpost-Webhooks/1',
        },
      },
      (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        let start = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (start.length < 300) start += chunk;
        });
        response.on('error', () => {});
        response.on('end', () => {
          const ok = status >= 200 && status < 300;
          finish({
            status,
            responseMs: elapsed(),
            error: ok ? null : `HTTP ${status}${start ? `: ${start.slice(0, 300)}` : ''}`,
          });
        });
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, responseMs: elapsed(), error: `timed out after ${input.timeoutMs} ms` });
      req.destroy();
    }, input.timeoutMs);
    req.on('error', (error) => finish({ status: null, responseMs: elapsed(), error: error.message }));
    req.end(input.body);
  });
}

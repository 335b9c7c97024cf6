import type { StorageLike } from '@signpost/sdk-core';
import type { Maintenance, MaintenanceType } from './types.js';

/** Who the current user is, as far as the maintenance whitelist cares. */
export interface Visitor {
  /** The signed-in user's e-mail; compared case-insensitively. */
  email?: string | undefined;
  /**
   * The client's IP address. A browser cannot learn its own public IP, so the app passes it in
   * (from its server, e.g. the request's address rendered into the page); without it the `ips`
   * whitelist is not applied.
   */
  ip?: string | undefined;
  /** Where `localStorageKeys` are looked up. Default `globalThis.localStorage` when present. */
  storage?: StorageLike | null | undefined;
}

/** What the app should do about maintenance right now. */
export interface MaintenanceState {
  /** Maintenance is switched on for the project. */
  enabled: boolean;
  type: MaintenanceType;
  /** Block the app: `full` or `custom` maintenance and the visitor is not whitelisted. */
  blocked: boolean;
  /** Show a notice: `banner` maintenance (whitelisted visitors see it too). */
  banner: boolean;
  /** The whitelist let this visitor through, and why. */
  bypassedBy: 'localStorageKey' | 'email' | 'ip' | null;
  customHtml: string | null;
  expectedRestoration: string | null;
  /** The status page link, when the project chose to show it. */
  statusPageUrl: string | null;
}

export const NO_MAINTENANCE: MaintenanceState = {
  enabled: false,
  type: 'full',
  blocked: false,
  banner: false,
  bypassedBy: null,
  customHtml: null,
  expectedRestoration: null,
  statusPageUrl: null,
};

/** Applies the maintenance settings and the whitelist to one visitor. Pure apart from reading storage. */
export function evaluateMaintenance(maintenance: Maintenance | undefined, visitor: Visitor = {}): MaintenanceState {
  if (!maintenance?.enabled) return NO_MAINTENANCE;
  const bypassedBy = whitelisted(maintenance, visitor);
  const blocking = maintenance.type === 'full' || maintenance.type === 'custom';
  return {
    enabled: true,
    type: maintenance.type,
    blocked: blocking && bypassedBy === null,
    banner: maintenance.type === 'banner',
    bypassedBy,
    customHtml: maintenance.type === 'custom' ? maintenance.customHtml : null,
    expectedRestoration: maintenance.expectedRestoration,
    statusPageUrl: maintenance.showStatusLink ? maintenance.statusPageUrl : null,
  };
}

function whitelisted(maintenance: Maintenance, visitor: Visitor): MaintenanceState['bypassedBy'] {
  const list = maintenance.whitelist;
  const storage = visitor.storage === undefined ? defaultStorage() : visitor.storage;
  if (storage && list.localStorageKeys.some((key) => safeGet(storage, key) !== null)) return 'localStorageKey';
  const email = visitor.email?.trim().toLowerCase();
  if (email && list.emails.some((e) => e.trim().toLowerCase() === email)) return 'email';
  if (visitor.ip && list.ips.some((rule) => ipMatches(visitor.ip!, rule))) return 'ip';
  return null;
}

function defaultStorage(): StorageLike | null {
  try {
    return (globalThis as { localStorage?: StorageLike }).localStorage ?? null;
  } catch {
    return null; // access denied (sandboxed frame, blocked cookies)
  }
}

function safeGet(storage: StorageLike, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

/** `ip` equals `rule`, or lies in `rule` when it is an IPv4 CIDR block (`10.0.0.0/8`). */
export function ipMatches(ip: string, rule: string): boolean {
  const a = ip
    .trim()
    .toLowerCase()
    .replace(/^::ffff:(?=\d+\.)/, '');
  const r = rule.trim().toLowerCase();
  if (!r.includes('/')) return a === r.replace(/^::ffff:(?=\d+\.)/, '');
  const [base, bitsText] = r.split('/') as [string, string];
  const bits = Number(bitsText);
  const x = ipv4(a);
  const y = ipv4(base);
  if (x === null || y === null || !Number.isInteger(bits) || bits < 0 || bits > 32) return false;
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (x & mask) >>> 0 === (y & mask) >>> 0;
}

function ipv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = value * 256 + Number(part);
  }
  return value;
}

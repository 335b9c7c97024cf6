import type { DeviceContext, NetworkContext } from './types.js';

const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/([\d.]+)/, 'Edge'],
  [/OPR\/([\d.]+)/, 'Opera'],
  [/SamsungBrowser\/([\d.]+)/, 'Samsung Internet'],
  [/Firefox\/([\d.]+)/, 'Firefox'],
  [/FxiOS\/([\d.]+)/, 'Firefox'],
  [/CriOS\/([\d.]+)/, 'Chrome'],
  [/HeadlessChrome\/([\d.]+)/, 'Chrome Headless'],
  [/Chrome\/([\d.]+)/, 'Chrome'],
  [/Version\/([\d.]+).*Safari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/Windows NT ([\d.]+)/, 'Windows'],
  [/(?:iPhone|CPU) OS ([\d_]+)/, 'iOS'],
  [/Mac OS X ([\d_.]+)/, 'macOS'],
  [/Android ([\d.]+)/, 'Android'],
  [/CrOS \S+ ([\d.]+)/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/** Browser, OS and device class read from a user agent string. */
export function parseUserAgent(
  ua: string,
): Pick<DeviceContext, 'browser' | 'browserVersion' | 'os' | 'osVersion' | 'device'> {
  const out: Pick<DeviceContext, 'browser' | 'browserVersion' | 'os' | 'osVersion' | 'device'> = {};
  for (const [re, name] of BROWSERS) {
    const m = re.exec(ua);
    if (m) {
      out.browser = name;
      if (m[1]) out.browserVersion = m[1];
      break;
    }
  }
  for (const [re, name] of SYSTEMS) {
    const m = re.exec(ua);
    if (m) {
      out.os = name;
      if (m[1]) out.osVersion = m[1].replace(/_/g, '.');
      break;
    }
  }
  out.device = /iPad|Tablet/i.test(ua) ? 'tablet' : /Mobi|iPhone|Android/i.test(ua) ? 'mobile' : 'desktop';
  return out;
}

function timezone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** Device context in a browser (or a worker): user agent, browser, OS, screen, language, time zone. */
export function browserDevice(): DeviceContext {
  const nav = (globalThis as { navigator?: Navigator }).navigator;
  const device: DeviceContext = {};
  if (nav?.userAgent) Object.assign(device, { userAgent: nav.userAgent }, parseUserAgent(nav.userAgent));
  const screen = (globalThis as { screen?: Screen }).screen;
  if (screen?.width) device.screenResolution = `${screen.width}x${screen.height}`;
  if (nav?.language) device.language = nav.language;
  const tz = timezone();
  if (tz) device.timezone = tz;
  return device;
}

/** Network context from `navigator.connection` (where supported) and `navigator.onLine`. */
export function browserNetwork(): NetworkContext | undefined {
  const nav = (
    globalThis as {
      navigator?: Navigator & { connection?: { effectiveType?: string; downlink?: number; rtt?: number } };
    }
  ).navigator;
  if (!nav) return undefined;
  const network: NetworkContext = {};
  const c = nav.connection;
  if (c?.effectiveType) network.effectiveType = c.effectiveType;
  if (typeof c?.downlink === 'number') network.downlink = c.downlink;
  if (typeof c?.rtt === 'number') network.rtt = c.rtt;
  if (typeof nav.onLine === 'boolean') network.online = nav.onLine;
  return network;
}

export function baseDevice(): DeviceContext {
  const device: DeviceContext = {};
  const tz = timezone();
  if (tz) device.timezone = tz;
  try {
    device.language = Intl.DateTimeFormat().resolvedOptions().locale;
  } catch {
    // leave it out
  }
  return device;
}

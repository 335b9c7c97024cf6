/** Where a user's editors keep their settings, by operating system. */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const PLATFORMS = ['darwin', 'linux', 'win32'] as const;
export type Platform = (typeof PLATFORMS)[number];

export interface SetupEnvironment {
  platform: Platform;
  home: string;
  /** macOS `~/Library/Application Support`, Linux `$XDG_CONFIG_HOME` or `~/.config`, Windows `%APPDATA%`. */
  appConfigDir: string;
  /** Windows `%LOCALAPPDATA%` (packaged apps live under its `Packages`); null elsewhere. */
  localAppData: string | null;
}

export function toPlatform(value: string): Platform {
  const v = value === 'macos' || value === 'mac' ? 'darwin' : value === 'windows' || value === 'win' ? 'win32' : value;
  if ((PLATFORMS as readonly string[]).includes(v)) return v as Platform;
  throw new Error(`Unknown platform "${value}". Use one of: ${PLATFORMS.join(', ')}.`);
}

/** The host platform, or linux for other Unix-likes (they follow the XDG layout). */
export function hostPlatform(): Platform {
  return process.platform === 'darwin' || process.platform === 'win32' ? process.platform : 'linux';
}

export function resolveEnvironment(platform: Platform, env: NodeJS.ProcessEnv): SetupEnvironment {
  const nonEmpty = (v: string | undefined) => (v?.trim() ? v : undefined);
  if (platform === 'win32') {
    const home = nonEmpty(env['USERPROFILE']) ?? nonEmpty(env['HOME']) ?? homedir();
    return {
      platform,
      home,
      appConfigDir: nonEmpty(env['APPDATA']) ?? join(home, 'AppData', 'Roaming'),
      localAppData: nonEmpty(env['LOCALAPPDATA']) ?? join(home, 'AppData', 'Local'),
    };
  }
  const home = nonEmpty(env['HOME']) ?? homedir();
  if (platform === 'darwin') {
    return { platform, home, appConfigDir: join(home, 'Library', 'Application Support'), localAppData: null };
  }
  return {
    platform,
    home,
    appConfigDir: nonEmpty(env['XDG_CONFIG_HOME']) ?? join(home, '.config'),
    localAppData: null,
  };
}

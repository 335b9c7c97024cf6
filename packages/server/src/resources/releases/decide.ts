import semver from 'semver';

export interface Release {
  version: string;
  title: string;
  releaseNotes: string;
  downloadUrl: string;
  releaseDate: string;
  isBeta: boolean;
  gitCommit: string | null;
  required: boolean;
}

export type UpdateType = 'major' | 'minor' | 'patch' | 'prerelease' | 'none';

export interface VersionInfo {
  updateAvailable: boolean;
  updateRequired: boolean;
  updateRecommended: boolean;
  updateType: UpdateType;
  latestVersion: Omit<Release, 'gitCommit' | 'required'> | null;
}

const GIT_HASH = /^[0-9a-f]{7,40}$/i;

/** The client's version: SemVer as given, or the version of the release whose commit matches. */
export function resolveClientVersion(current: string | undefined, releases: readonly Release[]): string | undefined {
  if (!current) return undefined;
  const clean = semver.valid(semver.clean(current) ?? '');
  if (clean) return clean;
  if (!GIT_HASH.test(current)) return undefined;
  const hash = current.toLowerCase();
  const match = releases.find((release) => release.gitCommit?.toLowerCase().startsWith(hash));
  return match ? match.version : undefined;
}

function updateTypeOf(from: string, to: string): UpdateType {
  switch (semver.diff(from, to)) {
    case 'major':
    case 'premajor':
      return 'major';
    case 'minor':
    case 'preminor':
      return 'minor';
    case 'patch':
    case 'prepatch':
      return 'patch';
    case 'prerelease':
      return 'prerelease';
    default:
      return 'none';
  }
}

/**
 * Beta releases count only for a client already on a prerelease. An unknown or missing client
 * version learns the latest release but is offered no update.
 */
export function decideVersion(current: string | undefined, releases: readonly Release[]): VersionInfo {
  const client = resolveClientVersion(current, releases);
  const onPrerelease = client !== undefined && semver.prerelease(client) !== null;
  const candidates = releases.filter((release) => semver.valid(release.version) && (!release.isBeta || onPrerelease));
  const latest = candidates.reduce<Release | undefined>(
    (best, release) => (!best || semver.gt(release.version, best.version) ? release : best),
    undefined,
  );
  const latestVersion = latest
    ? {
        version: latest.version,
        title: latest.title,
        releaseNotes: latest.releaseNotes,
        downloadUrl: latest.downloadUrl,
        releaseDate: latest.releaseDate,
        isBeta: latest.isBeta,
      }
    : null;
  if (!client || !latest) {
    return {
      updateAvailable: false,
      updateRequired: false,
      updateRecommended: false,
      updateType: 'none',
      latestVersion,
    };
  }
  const updateAvailable = semver.gt(latest.version, client);
  const updateType = updateAvailable ? updateTypeOf(client, latest.version) : 'none';
  const updateRequired = releases.some(
    (release) => release.required && semver.valid(release.version) && semver.gt(release.version, client),
  );
  return {
    updateAvailable,
    updateRequired,
    updateRecommended: updateRequired || updateType === 'major' || updateType === 'minor',
    updateType,
    latestVersion,
  };
}

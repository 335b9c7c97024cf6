/**
 * `@signpost/site-manager/openfeature`: Signpost feature flags as an OpenFeature web provider.
 * `@openfeature/web-sdk` is an optional peer dependency of this package.
 *
 * Flags are answered from the site manager's cache (no network call inside `resolve*`); a change
 * on the server emits `ConfigurationChanged` with `flagsChanged`.
 */
import {
  ErrorCode,
  OpenFeatureEventEmitter,
  ProviderEvents,
  StandardResolutionReasons,
  type EvaluationContext,
  type Hook,
  type JsonValue,
  type Provider,
  type ResolutionDetails,
} from '@openfeature/web-sdk';
import { createSiteManager, type SiteManager, type SiteManagerOptions } from './manager.js';

/** What the provider's hook needs of an error tracker (`@signpost/error-tracker`'s, or any). */
export interface FlagRecorder {
  addFeatureFlag(flag: string, result: boolean | string | number | null): void;
}

export type SignpostProviderOptions = (SiteManagerOptions | { manager: SiteManager }) & {
  /**
   * Records every evaluation on this error tracker (through the provider's OpenFeature hook), so
   * its error events carry the flags evaluated before them.
   */
  errorTracker?: FlagRecorder;
};

export class SignpostProvider implements Provider {
  readonly metadata = { name: 'signpost' } as const;
  readonly runsOn = 'client' as const;
  readonly events = new OpenFeatureEventEmitter();
  /** The site manager underneath (maintenance, messages, version check stay available). */
  readonly manager: SiteManager;
  private readonly owned: boolean;
  private readonly stop: () => void;
  private failed = false;
  /** With `errorTracker`: the hook that hands each evaluation to it. */
  readonly hooks: Hook[];

  constructor(options: SignpostProviderOptions) {
    const tracker = options.errorTracker;
    this.hooks = tracker
      ? [
          {
            after(_hookContext, details) {
              const value = details.value;
              if (
                typeof value === 'boolean' ||
                typeof value === 'string' ||
                typeof value === 'number' ||
                value === null
              )
                tracker.addFeatureFlag(details.flagKey, value);
            },
          },
        ]
      : [];
    this.owned = !('manager' in options);
    this.manager = 'manager' in options ? options.manager : createSiteManager(options);
    this.stop = this.manager.on('change', (change) => {
      if (this.failed) {
        this.failed = false;
        this.events.emit(ProviderEvents.Ready);
      } else if (change.flagsChanged.length > 0) {
        this.events.emit(ProviderEvents.ConfigurationChanged, { flagsChanged: change.flagsChanged });
      }
    });
  }

  async initialize(_context?: EvaluationContext): Promise<void> {
    await this.manager.ready;
    if (!this.manager.config) {
      this.failed = true;
      throw new Error('Signpost site configuration could not be loaded; flags answer their defaults until it is');
    }
  }

  async onClose(): Promise<void> {
    this.stop();
    if (this.owned) this.manager.close();
  }

  resolveBooleanEvaluation(flagKey: string, defaultValue: boolean): ResolutionDetails<boolean> {
    const config = this.manager.config;
    if (!config)
      return { value: defaultValue, reason: StandardResolutionReasons.ERROR, errorCode: ErrorCode.PROVIDER_NOT_READY };
    const flag = config.featureFlags.find((f) => f.key === flagKey);
    if (!flag) {
      return {
        value: defaultValue,
        reason: StandardResolutionReasons.ERROR,
        errorCode: ErrorCode.FLAG_NOT_FOUND,
        errorMessage: `No Signpost flag "${flagKey}"`,
      };
    }
    return { value: flag.enabled, variant: flag.enabled ? 'on' : 'off', reason: StandardResolutionReasons.STATIC };
  }

  resolveStringEvaluation(flagKey: string, defaultValue: string): ResolutionDetails<string> {
    return this.mismatch(flagKey, defaultValue);
  }

  resolveNumberEvaluation(flagKey: string, defaultValue: number): ResolutionDetails<number> {
    return this.mismatch(flagKey, defaultValue);
  }

  resolveObjectEvaluation<T extends JsonValue>(flagKey: string, defaultValue: T): ResolutionDetails<T> {
    return this.mismatch(flagKey, defaultValue);
  }

  private mismatch<T>(flagKey: string, defaultValue: T): ResolutionDetails<T> {
    return {
      value: defaultValue,
      reason: StandardResolutionReasons.ERROR,
      errorCode: ErrorCode.TYPE_MISMATCH,
      errorMessage: `Signpost flag "${flagKey}" is boolean; use getBooleanValue`,
    };
  }
}

/** The fields a project's create form and its settings share: locales, plan and monthly quota. */
import { Field } from '../ui.tsx';

export const QUOTA_MESSAGE = 'Enter a whole number of requests, or leave it empty for unlimited';

export function LocaleFields({
  defaultLocale,
  onDefaultLocale,
  locales,
  onLocales,
  errors,
}: {
  defaultLocale: string;
  onDefaultLocale: (value: string) => void;
  /** Comma-separated, as typed. */
  locales: string;
  onLocales: (value: string) => void;
  errors: Record<string, string>;
}) {
  return (
    <div className="grid-2">
      <Field
        label="Default locale"
        description="BCP 47, e.g. en or de-AT"
        value={defaultLocale}
        onChange={onDefaultLocale}
        serverError={errors['defaultLocale']}
      />
      <Field
        label="Supported locales"
        description="Separated by commas; must include the default"
        value={locales}
        onChange={onLocales}
        serverError={errors['supportedLocales'] ?? errors['supportedLocales/0']}
      />
    </div>
  );
}

/** Plan and quota: only a team's owner sets them (the server refuses anyone else). */
export function PlanFields({
  plan,
  onPlan,
  quota,
  onQuota,
  quotaError,
  errors,
}: {
  plan: string;
  onPlan: (value: string) => void;
  quota: string;
  onQuota: (value: string) => void;
  /** The form's own word on the quota (not a whole number), before the server's. */
  quotaError: string | undefined;
  errors: Record<string, string>;
}) {
  return (
    <div className="grid-2">
      <Field
        label="Plan"
        description="Optional; a name for your own bookkeeping"
        value={plan}
        onChange={onPlan}
        serverError={errors['plan']}
      />
      <Field
        label="Monthly quota"
        description="Requests a month on the public API; empty: unlimited"
        value={quota}
        onChange={onQuota}
        inputMode="numeric"
        serverError={quotaError ?? errors['monthlyQuota']}
      />
    </div>
  );
}

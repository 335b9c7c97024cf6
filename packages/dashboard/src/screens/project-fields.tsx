/**
 * What a project's create form and its settings share: the locales, plan and monthly quota as
 * typed (useProjectDraft) and their fields (ProjectDraftFields), plan and quota only for a team's
 * owner (the server refuses anyone else).
 */
import { type ReactNode, useState } from 'react';
import { parseLocales, parseQuota } from '../api/projects.ts';
import { Field } from '../ui.tsx';
import { bindFields, type FieldSpec } from '../widgets/form-fields.ts';

const QUOTA_MESSAGE = 'Enter a whole number of requests, or leave it empty for unlimited';

export interface ProjectDraft {
  defaultLocale: string;
  setDefaultLocale: (value: string) => void;
  /** Comma-separated, as typed. */
  locales: string;
  setLocales: (value: string) => void;
  plan: string;
  setPlan: (value: string) => void;
  quota: string;
  setQuota: (value: string) => void;
  /** The form's own word on the quota (not a whole number), before the server's. */
  quotaError: string | undefined;
  /** The quota to send (null: unlimited), or undefined after saying why it is not one. */
  checkQuota: () => number | null | undefined;
  /** The supported locales typed, in order. */
  localeList: () => string[];
}

export function useProjectDraft(initial: {
  defaultLocale: string;
  locales: string;
  plan: string;
  quota: string;
}): ProjectDraft {
  const [defaultLocale, setDefaultLocale] = useState(initial.defaultLocale);
  const [locales, setLocales] = useState(initial.locales);
  const [plan, setPlan] = useState(initial.plan);
  const [quota, setQuotaText] = useState(initial.quota);
  const [quotaError, setQuotaError] = useState<string>();
  return {
    defaultLocale,
    setDefaultLocale,
    locales,
    setLocales,
    plan,
    setPlan,
    quota,
    setQuota: (value) => {
      setQuotaText(value);
      setQuotaError(undefined);
    },
    quotaError,
    checkQuota: () => {
      const parsed = parseQuota(quota);
      setQuotaError(parsed === 'invalid' ? QUOTA_MESSAGE : undefined);
      return parsed === 'invalid' ? undefined : parsed;
    },
    localeList: () => parseLocales(locales),
  };
}

const PROJECT_FIELDS = {
  defaultLocale: { label: 'Default locale', description: 'BCP 47, e.g. en or de-AT' },
  locales: {
    label: 'Supported locales',
    description: 'Separated by commas; must include the default',
    errorKey: 'supportedLocales',
  },
  plan: { label: 'Plan', description: 'Optional; a name for your own bookkeeping' },
  quota: {
    label: 'Monthly quota',
    description: 'Requests a month on the public API; empty: unlimited',
    inputMode: 'numeric',
    errorKey: 'monthlyQuota',
  },
} satisfies Record<string, FieldSpec>;

/** The locales, then plan and quota for an owner or `notOwner` for anyone else. */
export function ProjectDraftFields({
  draft,
  owner,
  errors,
  notOwner,
}: {
  draft: ProjectDraft;
  owner: boolean;
  errors: Record<string, string>;
  notOwner: ReactNode;
}) {
  const setters = {
    defaultLocale: draft.setDefaultLocale,
    locales: draft.setLocales,
    plan: draft.setPlan,
    quota: draft.setQuota,
  };
  const field = bindFields(PROJECT_FIELDS, draft, (name) => setters[name], {
    ...errors,
    // The API names a bad list, or its first bad entry; the form's own word on the quota comes first.
    supportedLocales: errors['supportedLocales'] ?? errors['supportedLocales/0'],
    monthlyQuota: draft.quotaError ?? errors['monthlyQuota'],
  });
  return (
    <>
      <div className="grid-2">
        <Field {...field('defaultLocale')} />
        <Field {...field('locales')} />
      </div>
      {owner ? (
        <div className="grid-2">
          <Field {...field('plan')} />
          <Field {...field('quota')} />
        </div>
      ) : (
        notOwner
      )}
    </>
  );
}

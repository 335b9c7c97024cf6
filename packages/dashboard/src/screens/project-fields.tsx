/**
 * What a project's create form and its settings share: the locales, plan and monthly quota as
 * typed (useProjectDraft) and their fields (ProjectDraftFields), plan and quota only for a team's
 * owner (the server refuses anyone else).
 */
import { type ReactNode, useState } from 'react';
import { parseLocales, parseQuota } from '../api/projects.ts';
import { Field } from '../ui.tsx';

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
  return (
    <>
      <div className="grid-2">
        <Field
          label="Default locale"
          description="BCP 47, e.g. en or de-AT"
          value={draft.defaultLocale}
          onChange={draft.setDefaultLocale}
          serverError={errors['defaultLocale']}
        />
        <Field
          label="Supported locales"
          description="Separated by commas; must include the default"
          value={draft.locales}
          onChange={draft.setLocales}
          serverError={errors['supportedLocales'] ?? errors['supportedLocales/0']}
        />
      </div>
      {owner ? (
        <div className="grid-2">
          <Field
            label="Plan"
            description="Optional; a name for your own bookkeeping"
            value={draft.plan}
            onChange={draft.setPlan}
            serverError={errors['plan']}
          />
          <Field
            label="Monthly quota"
            description="Requests a month on the public API; empty: unlimited"
            value={draft.quota}
            onChange={draft.setQuota}
            inputMode="numeric"
            serverError={draft.quotaError ?? errors['monthlyQuota']}
          />
        </div>
      ) : (
        notOwner
      )}
    </>
  );
}

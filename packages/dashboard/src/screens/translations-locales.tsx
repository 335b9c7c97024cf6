/** The translations screen's locale settings: the supported locales and the default one. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import { type Locales, translationsKey } from '../api/translations.ts';
import { Field, fieldErrors } from '../ui.tsx';
import { SelectField } from '../widgets/fields.tsx';
import { FormActions } from '../widgets/form-actions.tsx';
import { setAnd } from '../widgets/form-request.ts';

export function LocaleSettings({ projectId, locales, admin }: { projectId: string; locales: Locales; admin: boolean }) {
  const queryClient = useQueryClient();
  const [defaultLocale, setDefaultLocale] = useState(locales.defaultLocale);
  const [supported, setSupported] = useState(locales.supportedLocales.join(', '));
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    setDefaultLocale(locales.defaultLocale);
    setSupported(locales.supportedLocales.join(', '));
  }, [locales]);
  const list = supported
    .split(/[\s,]+/)
    .map((l) => l.trim())
    .filter(Boolean);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/projects/{projectId}/translations/locales', {
          params: { path: { projectId } },
          body: { defaultLocale, supportedLocales: list },
        }),
      ),
    onSuccess: () => {
      setSaved(true);
      void queryClient.invalidateQueries({ queryKey: translationsKey(projectId) });
    },
  });
  const errors = fieldErrors(save.error);
  const supportedError = Object.entries(errors).find(([field]) => field.startsWith('supportedLocales'))?.[1];
  if (!admin) {
    return (
      <section className="card stack" aria-labelledby="locales-title">
        <h2 id="locales-title">Locales</h2>
        <p>
          Default locale: <strong>{locales.defaultLocale}</strong>. Supported: {locales.supportedLocales.join(', ')}.
        </p>
      </section>
    );
  }
  const options = [...new Set([...list, defaultLocale])];
  return (
    <section className="card stack" aria-labelledby="locales-title">
      <h2 id="locales-title">Locales</h2>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          setSaved(false);
          save.mutate();
        }}
      >
        <div className="translations-form-grid">
          <Field
            label="Supported locales"
            description="BCP 47 tags separated by commas, e.g. en, de, pt-BR"
            value={supported}
            onChange={setAnd(setSupported, () => setSaved(false))}
            serverError={supportedError}
          />
          <LocaleSelect
            label="Default locale"
            description="Every key falls back to it"
            value={defaultLocale}
            locales={options}
            onChange={setAnd(setDefaultLocale, () => setSaved(false))}
            error={errors.defaultLocale}
          />
        </div>
        <FormActions request={save} submitLabel="Save locales" note={saved ? 'Locales saved.' : null} />
      </form>
    </section>
  );
}

/** A choice of one of the project's locales: their BCP 47 tags are their own labels. */
export function LocaleSelect({
  locales,
  ...select
}: {
  label: string;
  description?: string;
  value: string;
  locales: readonly string[];
  onChange: (locale: string) => void;
  error?: string | undefined;
}) {
  return <SelectField {...select} options={locales.map((l) => ({ value: l, label: l }))} />;
}

/** The site-config screen's maintenance tab: its state, the admins' form and a safe preview of custom HTML. */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { api, unwrap } from '../api/client.ts';
import {
  formatWhen,
  fromLocalInput,
  lines,
  MAINTENANCE_TYPES,
  type Maintenance,
  type MaintenanceUpdate,
  toLocalInput,
} from '../api/site-config.ts';
import { Field, fieldErrors } from '../ui.tsx';
import { CheckboxField, SelectField, TextAreaField } from '../widgets/fields.tsx';
import { useRefresh } from './site-config-refresh.ts';
import { FormActions } from '../widgets/form-actions.tsx';
import { setAnd } from '../widgets/form-request.ts';

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** Custom HTML as the app would show it, in a frame that runs no script and reaches nothing. */
function HtmlPreview({ html }: { html: string }) {
  return (
    <div className="stack html-preview-block">
      <h3 id="maintenance-preview-title">Preview of the custom page</h3>
      <p className="muted">
        Shown without scripts (they never run here); styles and images from elsewhere are left out.
      </p>
      <iframe
        className="html-preview"
        title="Preview of the custom maintenance page"
        sandbox=""
        srcDoc={html}
        aria-describedby="maintenance-preview-title"
      />
    </div>
  );
}

export function MaintenanceSection({
  projectId,
  maintenance,
  admin,
}: {
  projectId: string;
  maintenance: Maintenance;
  admin: boolean;
}) {
  return (
    <>
      <h2>Maintenance</h2>
      <p className={maintenance.enabled ? 'note note-warn' : 'muted'}>
        {maintenance.enabled
          ? `Maintenance is on (${maintenance.type}): apps show it now.`
          : 'Maintenance is off: apps work as usual.'}
      </p>
      {admin ? (
        <MaintenanceForm projectId={projectId} maintenance={maintenance} />
      ) : (
        <MaintenanceFacts maintenance={maintenance} />
      )}
    </>
  );
}

function MaintenanceFacts({ maintenance }: { maintenance: Maintenance }) {
  const list = (items: string[]) => (items.length > 0 ? items.join(', ') : '—');
  return (
    <>
      <dl className="facts">
        <dt>On</dt>
        <dd>{yesNo(maintenance.enabled)}</dd>
        <dt>Type</dt>
        <dd>{MAINTENANCE_TYPES.find((t) => t.value === maintenance.type)?.label ?? maintenance.type}</dd>
        <dt>Expected restoration</dt>
        <dd>{formatWhen(maintenance.expectedRestoration)}</dd>
        <dt>Status link</dt>
        <dd>{maintenance.showStatusLink ? (maintenance.statusPageUrl ?? 'Shown') : 'Not shown'}</dd>
        <dt>Allowed IPs</dt>
        <dd>{list(maintenance.whitelist.ips)}</dd>
        <dt>Allowed e-mails</dt>
        <dd>{list(maintenance.whitelist.emails)}</dd>
        <dt>Allowed local-storage keys</dt>
        <dd>{list(maintenance.whitelist.localStorageKeys)}</dd>
      </dl>
      {maintenance.customHtml ? <HtmlPreview html={maintenance.customHtml} /> : null}
    </>
  );
}

/** The first error the API gave for a field or anything inside it (`whitelist/ips/1`, `whitelist.ips.1`). */
function errorUnder(errors: Record<string, string>, field: string): string | undefined {
  const key = Object.keys(errors).find((name) => name.replace(/\//g, '.').startsWith(field));
  return key === undefined ? undefined : errors[key];
}

type WhitelistName = keyof Maintenance['whitelist'];

/** The lists let through maintenance (one entry a line in the form), by the API's names. */
const WHITELIST: readonly { name: WhitelistName; label: string; description?: string }[] = [
  { name: 'ips', label: 'IP addresses', description: 'IPv4 or IPv6, optionally with a /prefix' },
  { name: 'emails', label: 'E-mail addresses' },
  { name: 'localStorageKeys', label: 'Local-storage keys', description: 'A device with this key set gets through' },
];

function MaintenanceForm({ projectId, maintenance }: { projectId: string; maintenance: Maintenance }) {
  const refresh = useRefresh(projectId);
  const [enabled, setEnabled] = useState(maintenance.enabled);
  const [type, setType] = useState<Maintenance['type']>(maintenance.type);
  const [customHtml, setCustomHtml] = useState(maintenance.customHtml ?? '');
  const [restoration, setRestoration] = useState(toLocalInput(maintenance.expectedRestoration));
  const [restorationError, setRestorationError] = useState<string>();
  const [showStatusLink, setShowStatusLink] = useState(maintenance.showStatusLink);
  const [statusPageUrl, setStatusPageUrl] = useState(maintenance.statusPageUrl ?? '');
  const [whitelist, setWhitelist] = useState(() => {
    const { ips, emails, localStorageKeys } = maintenance.whitelist;
    return { ips: ips.join('\n'), emails: emails.join('\n'), localStorageKeys: localStorageKeys.join('\n') };
  });
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: (body: MaintenanceUpdate) =>
      unwrap(api.PATCH('/projects/{projectId}/site-config/maintenance', { params: { path: { projectId } }, body })),
    onSuccess: async () => {
      setSaved(true);
      await refresh();
    },
  });
  const errors = fieldErrors(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const expectedRestoration = fromLocalInput(restoration);
    if (expectedRestoration === 'invalid') {
      setRestorationError('Enter a date and time, or leave it empty');
      return;
    }
    setRestorationError(undefined);
    save.mutate({
      enabled,
      type,
      customHtml: customHtml.trim() === '' ? null : customHtml,
      expectedRestoration,
      showStatusLink,
      statusPageUrl: statusPageUrl.trim() === '' ? null : statusPageUrl.trim(),
      whitelist: {
        ips: lines(whitelist.ips),
        emails: lines(whitelist.emails),
        localStorageKeys: lines(whitelist.localStorageKeys),
      },
    });
  };
  return (
    <Form className="stack" onSubmit={submit} aria-label="Maintenance settings">
      <CheckboxField
        label="Maintenance on"
        checked={enabled}
        onChange={setEnabled}
        description="Apps show maintenance to everyone not allowed below."
      />
      <SelectField label="Type" value={type} options={MAINTENANCE_TYPES} onChange={setType} error={errors.type} />
      <TextAreaField
        label="Custom HTML"
        description="Shown by the app as is in the custom type; scripts are your app’s business, the preview runs none."
        value={customHtml}
        onChange={setCustomHtml}
        rows={6}
        error={errors.customHtml}
      />
      {customHtml.trim() !== '' ? <HtmlPreview html={customHtml} /> : null}
      <div className="grid-2">
        <Field
          label="Expected restoration"
          description="In your time zone; empty: not said"
          type="datetime-local"
          value={restoration}
          onChange={setAnd(setRestoration, () => setRestorationError(undefined))}
          serverError={restorationError ?? errors.expectedRestoration}
        />
        <Field
          label="Status page URL"
          description="http(s) address; empty: none"
          type="url"
          value={statusPageUrl}
          onChange={setStatusPageUrl}
          serverError={errors.statusPageUrl}
        />
      </div>
      <CheckboxField label="Show the status link" checked={showStatusLink} onChange={setShowStatusLink} />
      <fieldset className="stack whitelist">
        <legend>Allowed through maintenance (one a line)</legend>
        <div className="grid-3">
          {WHITELIST.map(({ name, label, description }) => (
            <TextAreaField
              key={name}
              label={label}
              description={description}
              value={whitelist[name]}
              onChange={(value) => setWhitelist((current) => ({ ...current, [name]: value }))}
              error={errorUnder(errors, `whitelist.${name}`)}
            />
          ))}
        </div>
      </fieldset>
      <FormActions
        request={save}
        submitLabel="Save maintenance"
        busyLabel="Saving…"
        note={saved && !save.isPending ? 'Maintenance saved.' : null}
      />
    </Form>
  );
}

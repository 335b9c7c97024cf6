/** The site-config screen's status-message and environment tabs: lists with create, edit and delete. */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, Fragment, type ReactNode, useEffect, useState } from 'react';
import { Form } from 'react-aria-components';
import { api, unwrap } from '../api/client.ts';
import {
  type Environment,
  type EnvironmentInput,
  formatWhen,
  fromLocalInput,
  MESSAGE_STATE_LABELS,
  MESSAGE_TYPES,
  type MessageInput,
  messageState,
  type StatusMessage,
  toLocalInput,
} from '../api/site-config.ts';
import { Button, Field, fieldErrors } from '../ui.tsx';
import { ConfirmButton } from '../widgets/confirm.tsx';
import { CheckboxField, SelectField, TextAreaField } from '../widgets/fields.tsx';
import { FormActions } from '../widgets/form-actions.tsx';
import { Empty } from '../widgets/states.tsx';
import { useRefresh } from './site-config-sections.tsx';
import { DataTable } from '../widgets/data-table.tsx';
import { type FieldSpec, useFormFields } from '../widgets/form-fields.ts';
import { submitting } from '../widgets/form-request.ts';

/** The current time, moving every few seconds, so schedules turn Live and Expired on screen. */
function useNow(everyMs = 5000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** A management API call, before `unwrap`. */
type ApiCall = Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * A list of the configuration: its heading and introduction, the table (the admins' actions in a
 * last column) or the empty state, then the form: editing the chosen row, or adding a new one.
 */
function ListSection<T extends { id: string }>({
  projectId,
  remove,
  title,
  intro,
  empty,
  caption,
  headers,
  items,
  admin,
  cells,
  actions,
  form,
}: {
  projectId: string;
  /** The API call that deletes an item. */
  remove: (id: string) => ApiCall;
  title: string;
  intro: string;
  empty: string;
  caption: string;
  headers: readonly string[];
  items: readonly T[];
  admin: boolean;
  /** A row's cells but the actions. */
  cells: (item: T) => ReactNode;
  actions: (item: T, edit: () => void, remove: () => Promise<void>) => ReactNode;
  form: (item: T | undefined, done: () => void) => ReactNode;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const edited = items.find((item) => item.id === editing);
  const refresh = useRefresh(projectId);
  const removeAndRefresh = async (id: string) => {
    await unwrap(remove(id));
    await refresh();
  };
  return (
    <>
      <h2>{title}</h2>
      <p className="muted">{intro}</p>
      {items.length === 0 ? (
        <Empty>
          <p>{empty}</p>
        </Empty>
      ) : (
        <DataTable caption={caption} columns={[...headers, admin && 'Actions']}>
          {items.map((item) => (
            <tr key={item.id}>
              {cells(item)}
              {admin
                ? actions(
                    item,
                    () => setEditing(item.id),
                    () => removeAndRefresh(item.id),
                  )
                : null}
            </tr>
          ))}
        </DataTable>
      )}
      {admin && edited ? <Fragment key={edited.id}>{form(edited, () => setEditing(null))}</Fragment> : null}
      {admin && !edited ? <Fragment key="new">{form(undefined, () => undefined)}</Fragment> : null}
    </>
  );
}

/**
 * A form's save: the API call (a PATCH when editing, a POST when adding), then the new form's
 * fields emptied (`reset`), the configuration read again and the form closed (`onDone`).
 */
function useSave<B>({
  projectId,
  send,
  reset,
  onDone,
}: {
  projectId: string;
  send: (body: B) => ApiCall;
  reset: (() => void) | null;
  onDone: () => void;
}) {
  const refresh = useRefresh(projectId);
  return useMutation({
    mutationFn: (body: B) => unwrap(send(body)),
    onSuccess: async () => {
      reset?.();
      await refresh();
      onDone();
    },
  });
}

/** An admin's actions on a row: Edit (named for screen readers) and Delete after a confirmation. */
function RowActions({
  editName,
  onEdit,
  deleteLabel,
  deleteTitle,
  onDelete,
  children,
}: {
  editName: string;
  onEdit: () => void;
  deleteLabel: string;
  deleteTitle: string;
  onDelete: () => Promise<void>;
  /** What deleting does, in the confirmation. */
  children: ReactNode;
}) {
  return (
    <td>
      <div className="row">
        <Button variant="secondary" onPress={onEdit}>
          Edit<span className="visually-hidden"> {editName}</span>
        </Button>
        <ConfirmButton label={deleteLabel} title={deleteTitle} onConfirm={onDelete}>
          {children}
        </ConfirmButton>
      </div>
    </td>
  );
}

const STATE_BADGE = { live: 'badge badge-ok', upcoming: 'badge badge-warn', paused: 'badge', expired: 'badge' };

export function MessagesSection({
  projectId,
  messages,
  admin,
}: {
  projectId: string;
  messages: StatusMessage[];
  admin: boolean;
}) {
  const now = useNow();
  return (
    <ListSection
      projectId={projectId}
      remove={(messageId) =>
        api.DELETE('/projects/{projectId}/site-config/messages/{messageId}', {
          params: { path: { projectId, messageId } },
        })
      }
      title="Messages"
      intro="Apps show the messages that are live (on, and inside their start and end), highest priority first."
      empty="No messages yet."
      caption="Status messages"
      headers={['State', 'Type', 'Text', 'Priority', 'Starts', 'Ends']}
      items={messages}
      admin={admin}
      cells={(message) => {
        const state = messageState(message, now);
        return (
          <>
            <td>
              <span className={STATE_BADGE[state]}>{MESSAGE_STATE_LABELS[state]}</span>
            </td>
            <td>{message.type}</td>
            <td className="message-text">{message.text}</td>
            <td>{message.priority}</td>
            <td>{formatWhen(message.startsAt)}</td>
            <td>{formatWhen(message.expiresAt)}</td>
          </>
        );
      }}
      actions={(message, edit, remove) => (
        <RowActions
          editName={`“${message.text}”`}
          onEdit={edit}
          deleteLabel="Delete"
          deleteTitle="Delete this message?"
          onDelete={remove}
        >
          “{message.text}” is removed; apps stop showing it.
        </RowActions>
      )}
      form={(message, done) => <MessageForm projectId={projectId} message={message} onDone={done} />}
    />
  );
}

/** A status message's text fields; the text itself is a TextAreaField beside them. */
const MESSAGE_FIELDS = {
  priority: { label: 'Priority', description: 'Higher shows first', inputMode: 'numeric' },
  startsAt: { label: 'Starts', description: 'In your time zone; empty: now', type: 'datetime-local' },
  expiresAt: { label: 'Ends', description: 'Empty: never', type: 'datetime-local' },
} satisfies Record<string, FieldSpec>;

function MessageForm({
  projectId,
  message,
  onDone,
}: {
  projectId: string;
  message?: StatusMessage;
  onDone: () => void;
}) {
  const [type, setType] = useState<StatusMessage['type']>(message?.type ?? 'info');
  const [text, setText] = useState(message?.text ?? '');
  const [isActive, setActive] = useState(message?.isActive ?? true);
  const form = useFormFields(MESSAGE_FIELDS, {
    priority: String(message?.priority ?? 0),
    startsAt: toLocalInput(message?.startsAt ?? null),
    expiresAt: toLocalInput(message?.expiresAt ?? null),
  });
  const { priority, startsAt, expiresAt } = form.values;
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const save = useSave({
    projectId,
    send: (body: MessageInput) =>
      message
        ? api.PATCH('/projects/{projectId}/site-config/messages/{messageId}', {
            params: { path: { projectId, messageId: message.id } },
            body,
          })
        : api.POST('/projects/{projectId}/site-config/messages', { params: { path: { projectId } }, body }),
    reset: message
      ? null
      : () => {
          setText('');
          form.reset({ priority: '0', startsAt: '', expiresAt: '' });
          setActive(true);
        },
    onDone,
  });
  const errors = { ...fieldErrors(save.error), ...localErrors };
  const field = form.bind(errors);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const starts = fromLocalInput(startsAt);
    const ends = fromLocalInput(expiresAt);
    const found: Record<string, string> = {};
    if (!/^-?\d+$/.test(priority.trim())) found.priority = 'A whole number from -1000 to 1000';
    if (starts === 'invalid') found.startsAt = 'Enter a date and time, or leave it empty';
    if (ends === 'invalid') found.expiresAt = 'Enter a date and time, or leave it empty';
    setLocalErrors(found);
    if (Object.keys(found).length > 0 || starts === 'invalid' || ends === 'invalid') return;
    save.mutate({ type, text, priority: Number(priority.trim()), isActive, startsAt: starts, expiresAt: ends });
  };
  const title = message ? 'Edit message' : 'New message';
  const titleId = message ? `edit-message-${message.id}` : 'new-message-title';
  return (
    <Form className="stack message-form" onSubmit={submit} aria-labelledby={titleId}>
      <h3 id={titleId}>{title}</h3>
      <div className="grid-2">
        <SelectField label="Type" value={type} options={MESSAGE_TYPES} onChange={setType} error={errors.type} />
        <Field {...field('priority')} />
      </div>
      <TextAreaField label="Text" value={text} onChange={setText} rows={2} error={errors.text} />
      <div className="grid-2">
        <Field {...field('startsAt')} />
        <Field {...field('expiresAt')} />
      </div>
      <CheckboxField label="Active" checked={isActive} onChange={setActive} description="Off: never shown." />
      <FormActions
        request={save}
        submitLabel={message ? 'Save message' : 'Add message'}
        busyLabel="Saving…"
        onCancel={message ? onDone : undefined}
      />
    </Form>
  );
}

export function EnvironmentsSection({
  projectId,
  environments,
  admin,
}: {
  projectId: string;
  environments: Environment[];
  admin: boolean;
}) {
  return (
    <ListSection
      projectId={projectId}
      remove={(environmentId) =>
        api.DELETE('/projects/{projectId}/site-config/environments/{environmentId}', {
          params: { path: { projectId, environmentId } },
        })
      }
      title="Environments"
      intro="Where your app runs (production, staging…), each with its address, colour and debug switch."
      empty="No environments yet."
      caption="Environments"
      headers={['Name', 'Slug', 'URL', 'Colour', 'Debug']}
      items={environments}
      admin={admin}
      cells={(environment) => (
        <>
          <td>{environment.name}</td>
          <td className="code">{environment.slug}</td>
          <td>{environment.url || '—'}</td>
          <td>
            <span className="swatch" style={{ background: environment.color }} aria-hidden="true" />{' '}
            <span className="code">{environment.color}</span>
          </td>
          <td>{environment.debugEnabled ? 'On' : 'Off'}</td>
        </>
      )}
      actions={(environment, edit, remove) => (
        <RowActions
          editName={environment.name}
          onEdit={edit}
          deleteLabel={`Delete ${environment.name}`}
          deleteTitle={`Delete the environment ${environment.name}?`}
          onDelete={remove}
        >
          Apps stop receiving this environment.
        </RowActions>
      )}
      form={(environment, done) => <EnvironmentForm projectId={projectId} environment={environment} onDone={done} />}
    />
  );
}

const ENVIRONMENT_FIELDS = {
  name: { label: 'Name', isRequired: true },
  slug: { label: 'Slug', description: 'Lower-case letters, digits and -', isRequired: true },
  url: { label: 'URL', description: 'http(s) address; may be empty', type: 'url' },
  color: { label: 'Colour', description: '#rgb or #rrggbb' },
} satisfies Record<string, FieldSpec>;

function EnvironmentForm({
  projectId,
  environment,
  onDone,
}: {
  projectId: string;
  environment?: Environment;
  onDone: () => void;
}) {
  const form = useFormFields(ENVIRONMENT_FIELDS, {
    name: environment?.name ?? '',
    slug: environment?.slug ?? '',
    url: environment?.url ?? '',
    color: environment?.color ?? '#2450b8',
  });
  const { name, slug, url, color } = form.values;
  const [debugEnabled, setDebug] = useState(environment?.debugEnabled ?? false);
  const save = useSave({
    projectId,
    send: (body: EnvironmentInput) =>
      environment
        ? api.PATCH('/projects/{projectId}/site-config/environments/{environmentId}', {
            params: { path: { projectId, environmentId: environment.id } },
            body,
          })
        : api.POST('/projects/{projectId}/site-config/environments', { params: { path: { projectId } }, body }),
    reset: environment
      ? null
      : () => {
          form.reset({ name: '', slug: '', url: '' });
          setDebug(false);
        },
    onDone,
  });
  const field = form.bind(fieldErrors(save.error));
  const submit = submitting(() =>
    save.mutate({ name: name.trim(), slug: slug.trim(), url: url.trim(), color: color.trim(), debugEnabled }),
  );
  const titleId = environment ? `edit-environment-${environment.id}` : 'new-environment-title';
  return (
    <Form className="stack" onSubmit={submit} aria-labelledby={titleId}>
      <h3 id={titleId}>{environment ? `Edit ${environment.name}` : 'New environment'}</h3>
      <div className="grid-2">
        <Field {...field('name')} />
        <Field {...field('slug')} />
        <Field {...field('url')} />
        <Field {...field('color')} />
      </div>
      <CheckboxField label="Debug on in this environment" checked={debugEnabled} onChange={setDebug} />
      <FormActions
        request={save}
        submitLabel={environment ? 'Save environment' : 'Add environment'}
        busyLabel="Saving…"
        onCancel={environment ? onDone : undefined}
      />
    </Form>
  );
}

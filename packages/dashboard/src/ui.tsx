/** The shared widgets: React Aria Components styled once (src/styles/), and the in-place error note. */
import type { ReactNode } from 'react';
import {
  Button as AriaButton,
  type ButtonProps,
  FieldError,
  Input,
  Label,
  Text,
  TextField,
  type TextFieldProps,
} from 'react-aria-components';
import { Navigate, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { type Account, ApiError, fetchMe, ME_KEY } from './api/client.ts';

/**
 * A button; `busy` while its action runs: presses are ignored and it looks busy, but it keeps its
 * focus (React Aria's own `isPending` announces through a live region that outlives the button and
 * leaves a dangling label behind when the screen changes, which axe reports).
 */
export function Button({
  variant = 'primary',
  className,
  busy = false,
  onPress,
  ...props
}: Omit<ButtonProps, 'isPending'> & { variant?: 'primary' | 'secondary' | 'quiet' | 'danger'; busy?: boolean }) {
  return (
    <AriaButton
      {...props}
      onPress={busy ? undefined : onPress}
      aria-busy={busy || undefined}
      className={`button button-${variant}${busy ? ' button-busy' : ''}${className ? ` ${className}` : ''}`}
    />
  );
}

export function Field({
  label,
  description,
  serverError,
  type = 'text',
  autoComplete,
  ...props
}: TextFieldProps & {
  label: string;
  description?: string;
  /** The API's word on this field, shown under it until the value changes. */
  serverError?: string | undefined;
  type?: string;
  autoComplete?: string;
}) {
  return (
    <TextField
      {...props}
      className="field"
      isInvalid={serverError !== undefined ? true : undefined}
      validationBehavior="aria"
    >
      <Label>{label}</Label>
      <Input type={type} autoComplete={autoComplete} />
      {description ? <Text slot="description">{description}</Text> : null}
      <FieldError>{serverError}</FieldError>
    </TextField>
  );
}

/** An error in words, announced to screen readers, where the action happened. */
export function ErrorNote({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : 'Something went wrong';
  return (
    <p className="note note-error" role="alert">
      {message}
    </p>
  );
}

export function Note({ children }: { children: ReactNode }) {
  return (
    <p className="note note-ok" role="status">
      {children}
    </p>
  );
}

export function fieldErrors(error: unknown): Record<string, string> {
  return error instanceof ApiError ? error.fields : {};
}

/** Renders its children with the signed-in account, or sends the visitor to sign in first. */
export function RequireAccount({ children }: { children: (account: Account) => ReactNode }) {
  const me = useQuery({ queryKey: ME_KEY, queryFn: fetchMe });
  const location = useLocation();
  if (me.isPending) return <p className="loading">Loading…</p>;
  if (me.isError) return <ErrorNote error={me.error} />;
  if (!me.data) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  return <>{children(me.data)}</>;
}

/** Where to go after signing in: the page asked for, if it is one of ours. */
export function nextPath(search: URLSearchParams): string {
  const next = search.get('next');
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/';
}

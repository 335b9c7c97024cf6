/**
 * The e-mail address and password fields of the signed-out screens and the account page, named
 * and marked for password managers the same way everywhere (`username`, `current-password`,
 * `new-password`).
 */
import { Field } from '../ui.tsx';

const NEW_PASSWORD_RULE = 'At least 10 characters and hard to guess.';

export function EmailField({
  value,
  onChange,
  error,
  autoComplete = 'username',
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  /** `email` where an account is made, `username` where one signs in. */
  autoComplete?: 'username' | 'email';
}) {
  return (
    <Field
      label="E-mail address"
      name="email"
      type="email"
      autoComplete={autoComplete}
      isRequired
      value={value}
      onChange={onChange}
      serverError={error}
    />
  );
}

/** A password field: the one in use, or (`fresh`) a new one, with the rule it must meet. */
export function PasswordField({
  value,
  onChange,
  error,
  fresh = false,
  label = 'Password',
  name = 'password',
  description = fresh ? NEW_PASSWORD_RULE : undefined,
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  fresh?: boolean;
  label?: string;
  name?: string;
  description?: string | undefined;
}) {
  return (
    <Field
      label={label}
      name={name}
      type="password"
      autoComplete={fresh ? 'new-password' : 'current-password'}
      description={description}
      isRequired
      value={value}
      onChange={onChange}
      serverError={error}
    />
  );
}

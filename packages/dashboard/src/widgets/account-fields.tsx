/**
 * The e-mail address, password and name fields of the signed-out screens, the account page and
 * the team pages, named and marked for password managers and autofill the same way everywhere
 * (`username`, `current-password`, `new-password`, `name`).
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

/** What a name field takes: its value, its change, the API's word on it and, maybe, a help line. */
interface NameFieldProps {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  description?: string;
}

/** A person's name, as people sign up with it and change it on their account page. */
export function PersonNameField({ value, onChange, error, description }: NameFieldProps) {
  return (
    <Field
      label="Name"
      name="name"
      autoComplete="name"
      description={description}
      value={value}
      onChange={onChange}
      serverError={error}
    />
  );
}

/** A team's name, as it is created and renamed (required: the API refuses an empty one). */
export function TeamNameField({ value, onChange, error, description }: NameFieldProps) {
  return (
    <Field
      label="Team name"
      name="teamName"
      isRequired
      description={description}
      value={value}
      onChange={onChange}
      serverError={error}
    />
  );
}

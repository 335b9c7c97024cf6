import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 14). */
export default function ResetPassword() {
  useTitle('ResetPassword');
  return <h1>ResetPassword</h1>;
}

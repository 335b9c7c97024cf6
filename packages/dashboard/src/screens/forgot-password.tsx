import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 14). */
export default function ForgotPassword() {
  useTitle('ForgotPassword');
  return <h1>ForgotPassword</h1>;
}

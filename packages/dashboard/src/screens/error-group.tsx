import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 15). */
export default function ErrorGroup() {
  useTitle('ErrorGroup');
  return <h1>ErrorGroup</h1>;
}

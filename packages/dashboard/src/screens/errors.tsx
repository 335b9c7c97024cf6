import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 15). */
export default function Errors() {
  useTitle('Errors');
  return <h1>Errors</h1>;
}

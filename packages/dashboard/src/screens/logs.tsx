import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 15). */
export default function Logs() {
  useTitle('Logs');
  return <h1>Logs</h1>;
}

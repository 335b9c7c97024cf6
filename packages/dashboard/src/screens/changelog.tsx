import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 14). */
export default function Changelog() {
  useTitle('Changelog');
  return <h1>Changelog</h1>;
}

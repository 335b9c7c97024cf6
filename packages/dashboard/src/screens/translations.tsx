import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 15). */
export default function Translations() {
  useTitle('Translations');
  return <h1>Translations</h1>;
}

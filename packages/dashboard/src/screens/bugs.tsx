import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 15). */
export default function Bugs() {
  useTitle('Bugs');
  return <h1>Bugs</h1>;
}

import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 15). */
export default function Releases() {
  useTitle('Releases');
  return <h1>Releases</h1>;
}

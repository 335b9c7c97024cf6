import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 14). */
export default function Teams() {
  useTitle('Teams');
  return <h1>Teams</h1>;
}

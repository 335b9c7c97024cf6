import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 15). */
export default function BugReport() {
  useTitle('BugReport');
  return <h1>BugReport</h1>;
}

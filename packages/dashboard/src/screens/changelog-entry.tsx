import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 14). */
export default function ChangelogEntry() {
  useTitle('ChangelogEntry');
  return <h1>ChangelogEntry</h1>;
}

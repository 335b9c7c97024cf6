import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 14). */
export default function Inbox() {
  useTitle('Inbox');
  return <h1>Inbox</h1>;
}

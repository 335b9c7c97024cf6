import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 14). */
export default function Team() {
  useTitle('Team');
  return <h1>Team</h1>;
}

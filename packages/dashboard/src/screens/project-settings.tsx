import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 14). */
export default function ProjectSettings() {
  useTitle('ProjectSettings');
  return <h1>ProjectSettings</h1>;
}

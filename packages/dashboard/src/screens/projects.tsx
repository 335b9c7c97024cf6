import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 14). */
export default function Projects() {
  useTitle('Projects');
  return <h1>Projects</h1>;
}

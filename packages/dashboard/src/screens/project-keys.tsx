import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 14). */
export default function ProjectKeys() {
  useTitle('ProjectKeys');
  return <h1>ProjectKeys</h1>;
}

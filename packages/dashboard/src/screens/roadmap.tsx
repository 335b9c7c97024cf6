import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 14). */
export default function Roadmap() {
  useTitle('Roadmap');
  return <h1>Roadmap</h1>;
}

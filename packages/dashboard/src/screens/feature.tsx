import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 14). */
export default function Feature() {
  useTitle('Feature');
  return <h1>Feature</h1>;
}

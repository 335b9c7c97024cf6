import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 15). */
export default function LogGroup() {
  useTitle('LogGroup');
  return <h1>LogGroup</h1>;
}

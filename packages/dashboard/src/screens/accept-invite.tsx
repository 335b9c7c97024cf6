import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 14). */
export default function AcceptInvite() {
  useTitle('AcceptInvite');
  return <h1>AcceptInvite</h1>;
}

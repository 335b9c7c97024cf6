import { useTitle } from '../use-title.ts';

/** Placeholder until this screen is built (issue 15). */
export default function SiteConfig() {
  useTitle('SiteConfig');
  return <h1>SiteConfig</h1>;
}

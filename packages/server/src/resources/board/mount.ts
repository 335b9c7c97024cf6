/** What the surfaces mount: the board resource's pages (sign-in, SSO, sign-out). */
export { boardSignInPages } from './sign-in-pages.ts';

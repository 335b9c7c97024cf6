/** The server-rendered pages of the authorization flow: the consent page and error pages. */
import type { AccessibleProject, SignedInAccount } from './accounts.ts';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; background: #f6f7f9; color: #1f2328; margin: 0; }
  main { max-width: 30rem; margin: 4rem auto; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 2rem; }
  h1 { font-size: 1.3rem; margin-top: 0; }
  fieldset { border: 0; padding: 0; margin: 1.25rem 0; }
  legend { font-weight: 600; margin-bottom: .5rem; }
  label { display: block; margin: .35rem 0; }
  small { color: #57606a; display: block; margin-left: 1.6rem; }
  select, input[type=email], input[type=password] { font: inherit; width: 100%; padding: .4rem; box-sizing: border-box; }
  .problem { color: #cf222e; }
  .actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
  button { font: inherit; padding: .55rem 1.2rem; border-radius: 6px; border: 1px solid #d0d7de; background: #f6f8fa; cursor: pointer; }
  button.primary { background: #1f883d; border-color: #1f883d; color: #fff; }
  .who { color: #57606a; font-size: .9rem; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Signpost</title><style>${STYLE}</style></head>
<body><main>${body}</main></body>
</html>`;
}

export interface ConsentPage {
  clientName: string;
  redirectHost: string;
  account: SignedInAccount;
  projects: AccessibleProject[];
  handle: string;
  action: string;
}

export function consentPage(page: ConsentPage): string {
  const options = page.projects
    .map((project) => {
      const readOnly = project.canWrite ? '' : ', read only';
      return `<option value="${escape(project.id)}">${escape(project.name)} (${escape(project.id)}${readOnly})</option>`;
    })
    .join('');
  // Read is preselected whatever scopes the client asks for: write access is the user's deliberate choice.
  return layout(
    'Connect an MCP client',
    `<h1>${escape(page.clientName)} wants to use Signpost</h1>
<p class="who">Signed in as ${escape(page.account.email)}. After you decide, you return to ${escape(page.redirectHost)}.</p>
<form method="post" action="${escape(page.action)}">
  <input type="hidden" name="request" value="${escape(page.handle)}">
  <fieldset>
    <legend>Project</legend>
    <select name="project" aria-label="Project">${options}</select>
  </fieldset>
  <fieldset>
    <legend>Access</legend>
    <label><input type="radio" name="access" value="read" checked> Read</label>
    <small>List translation keys.</small>
    <label><input type="radio" name="access" value="write"> Read and write</label>
    <small>Also create and update features and bugs, and create and fill in translation keys.</small>
  </fieldset>
  <div class="actions">
    <button class="primary" type="submit" name="decision" value="allow">Allow</button>
    <button type="submit" name="decision" value="deny">Deny</button>
  </div>
</form>`,
  );
}

export function noProjectsPage(clientName: string, account: SignedInAccount): string {
  return layout(
    'No project',
    `<h1>No project to connect</h1>
<p>${escape(clientName)} asks for access to a Signpost project, but ${escape(account.email)} has none yet.
Create a project in the dashboard, then connect the MCP client again.</p>`,
  );
}

export function errorPage(title: string, message: string): string {
  return layout(title, `<h1>${escape(title)}</h1><p>${escape(message)}</p>`);
}

export function signInPage(
  action: string,
  returnTo: string,
  email: string,
  problem: string | undefined,
  provider?: { label: string; url: string },
): string {
  return layout(
    'Sign in',
    `<h1>Sign in to Signpost</h1>
<p>An MCP client asks to connect to your Signpost projects. Sign in to choose what it may do.</p>
${problem ? `<p class="problem" role="alert">${escape(problem)}</p>` : ''}
<form method="post" action="${escape(action)}">
  <input type="hidden" name="return_to" value="${escape(returnTo)}">
  <fieldset>
    <label>E-mail <input type="email" name="email" value="${escape(email)}" autocomplete="username" required></label>
    <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  </fieldset>
  <div class="actions"><button class="primary" type="submit">Sign in</button></div>
</form>
${provider ? `<p><a href="${escape(provider.url)}">Sign in with ${escape(provider.label)}</a></p>` : ''}`,
  );
}

/** The server-rendered pages of the authorization flow: the consent page and error pages. */
import type { AccessibleProject, SignedInAccount } from './accounts.ts';
import { escapeHtml } from '../kernel/html.ts';
import { ACCESS_LEVELS } from './access.ts';
import { SCOPE_WORDS, type McpScope } from '../routing/mcp/scopes.ts';

// Colours are variables so that one block follows the reader's light or dark preference.
const STYLE = `
  :root { color-scheme: light dark; --page: #f6f7f9; --card: #fff; --text: #1f2328; --muted: #57606a;
    --line: #d0d7de; --button: #f6f8fa; --primary: #1f883d; --problem: #cf222e; }
  @media (prefers-color-scheme: dark) {
    :root { --page: #0d1117; --card: #161b22; --text: #e6edf3; --muted: #9198a1;
      --line: #3d444d; --button: #21262d; --primary: #238636; --problem: #ff7b72; }
  }
  body { font: 16px/1.5 system-ui, sans-serif; background: var(--page); color: var(--text); margin: 0; }
  main { max-width: 30rem; margin: 4rem auto; background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 2rem; }
  h1 { font-size: 1.3rem; margin-top: 0; }
  fieldset { border: 0; padding: 0; margin: 1.25rem 0; }
  legend { font-weight: 600; margin-bottom: .5rem; }
  label { display: block; margin: .35rem 0; }
  small { color: var(--muted); display: block; margin-left: 1.6rem; }
  select, input[type=email], input[type=password] { font: inherit; width: 100%; padding: .4rem; box-sizing: border-box; }
  .problem { color: var(--problem); }
  .actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
  button { font: inherit; padding: .55rem 1.2rem; border-radius: 6px; border: 1px solid var(--line); background: var(--button); color: var(--text); cursor: pointer; }
  button.primary { background: var(--primary); border-color: var(--primary); color: #fff; }
  .who { color: var(--muted); font-size: .9rem; }
  ul.scopes { margin: .25rem 0 .5rem 1.6rem; padding-left: 1.1rem; color: var(--muted); font-size: .9rem; }
  code { font-size: .8rem; color: var(--muted); }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Signpost</title><style>${STYLE}</style></head>
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
      return `<option value="${escapeHtml(project.id)}">${escapeHtml(project.name)} (${escapeHtml(project.id)}${readOnly})</option>`;
    })
    .join('');
  // Read is preselected whatever scopes the client asks for: write access is the user's deliberate choice.
  return layout(
    'Connect an MCP client',
    `<h1>${escapeHtml(page.clientName)} wants to use Signpost</h1>
<p class="who">Signed in as ${escapeHtml(page.account.email)}. After you decide, you return to ${escapeHtml(page.redirectHost)}.</p>
<form method="post" action="${escapeHtml(page.action)}">
  <input type="hidden" name="request" value="${escapeHtml(page.handle)}">
  <fieldset>
    <legend>Project</legend>
    <select name="project" aria-label="Project">${options}</select>
  </fieldset>
  <fieldset>
    <legend>Access</legend>
    <label><input type="radio" name="access" value="read" checked> Read</label>
    ${scopeList(ACCESS_LEVELS.read)}
    <label><input type="radio" name="access" value="write"> Read and write</label>
    <small>Everything Read allows, and also:</small>
    ${scopeList(ACCESS_LEVELS.write.filter((scope) => !ACCESS_LEVELS.read.includes(scope)))}
  </fieldset>
  <div class="actions">
    <button class="primary" type="submit" name="decision" value="allow">Allow</button>
    <button type="submit" name="decision" value="deny">Deny</button>
  </div>
</form>`,
  );
}

/** The scopes of an access choice, in words, each with its name: "read ideas (feedback:read)". */
function scopeList(scopes: readonly McpScope[]): string {
  const items = scopes.map((scope) => `<li>${escapeHtml(SCOPE_WORDS[scope])} <code>${escapeHtml(scope)}</code></li>`);
  return `<ul class="scopes">${items.join('')}</ul>`;
}

export function noProjectsPage(clientName: string, account: SignedInAccount): string {
  return layout(
    'No project',
    `<h1>No project to connect</h1>
<p>${escapeHtml(clientName)} asks for access to a Signpost project, but ${escapeHtml(account.email)} has none yet.
Create a project in the dashboard, then connect the MCP client again.</p>`,
  );
}

export function errorPage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
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
${problem ? `<p class="problem" role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}">
  <input type="hidden" name="return_to" value="${escapeHtml(returnTo)}">
  <fieldset>
    <label>E-mail <input type="email" name="email" value="${escapeHtml(email)}" autocomplete="username" required></label>
    <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  </fieldset>
  <div class="actions"><button class="primary" type="submit">Sign in</button></div>
</form>
${provider ? `<p><a href="${escapeHtml(provider.url)}">Sign in with ${escapeHtml(provider.label)}</a></p>` : ''}`,
  );
}

/** The two small pages e-mail links open in a browser (the dashboard may replace them later). */
import { escapeHtml } from '../../kernel/html.ts';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)} · Signpost</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}input,button{font:inherit;padding:.4rem;width:100%;margin:.3rem 0}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

export function resultPage(title: string, text: string): string {
  return page(title, `<p>${escapeHtml(text)}</p>`);
}

export function resetPasswordPage(action: string, token: string, email: string): string {
  return page(
    'Choose a new password',
    `<p>For ${escapeHtml(email)}.</p>
<form id="reset"><input type="password" name="password" minlength="10" maxlength="200" required autocomplete="new-password" placeholder="New password (10 characters or more)">
<button>Change password</button></form><p id="result" role="status"></p>
<script>
document.getElementById('reset').addEventListener('submit', async (event) => {
  event.preventDefault();
  const response = await fetch(${JSON.stringify(action)}, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'signpost' },
    body: JSON.stringify({ token: ${JSON.stringify(token)}, password: event.target.password.value }),
  });
  const body = await response.json();
  document.getElementById('result').textContent = body.message || body.error;
});
</script>`,
  );
}

// The board's one script: it enhances pages that work without it. Votes and follows go through
// fetch and update in place; the submit form suggests similar ideas as the title is typed.
// Plain JavaScript served as written (no build), type-checked through JSDoc (tsconfig.json here).
// @ts-check

/** @typedef {{ voted: boolean, voteCount: number, label: string, countText: string }} VoteAnswer */
/** @typedef {{ title: string, url: string, votes: string }} Suggestion */

function enhanceVotes() {
  for (const form of /** @type {NodeListOf<HTMLFormElement>} */ (document.querySelectorAll('form[data-vote]'))) {
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const button = /** @type {HTMLButtonElement | null} */ (form.querySelector('button[type="submit"]'));
      if (!button || button.disabled) return;
      button.disabled = true;
      try {
        const response = await fetch(form.action, {
          method: 'POST',
          body: new URLSearchParams(/** @type {any} */ (new FormData(form))),
          headers: { accept: 'application/json' },
          credentials: 'same-origin',
        });
        if (!response.ok) throw new Error(String(response.status));
        const answer = /** @type {VoteAnswer} */ (await response.json());
        const intent = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name="intent"]'));
        if (intent) intent.value = answer.voted ? 'remove' : 'add';
        button.setAttribute('aria-pressed', String(answer.voted));
        button.textContent = answer.label;
        const count = document.querySelector(`[data-vote-count="${form.dataset['vote']}"]`);
        if (count) count.textContent = answer.countText;
      } catch {
        form.submit();
      } finally {
        button.disabled = false;
      }
    });
  }
}

function enhanceSuggestions() {
  const title = /** @type {HTMLInputElement | null} */ (document.querySelector('input[data-suggest]'));
  const box = /** @type {HTMLElement | null} */ (document.querySelector('#similar'));
  const list = box?.querySelector('ul');
  if (!title || !box || !list) return;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let asked = 0;
  title.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const text = title.value.trim();
      const ticket = ++asked;
      if (text.length < 3) {
        box.hidden = true;
        return;
      }
      try {
        const response = await fetch(`${title.dataset['suggest']}?q=${encodeURIComponent(text)}`, {
          headers: { accept: 'application/json' },
        });
        if (!response.ok || ticket !== asked) return;
        const suggestions = /** @type {Suggestion[]} */ (await response.json());
        list.replaceChildren(
          ...suggestions.map((suggestion) => {
            const item = document.createElement('li');
            const link = document.createElement('a');
            link.href = suggestion.url;
            link.textContent = suggestion.title;
            const votes = document.createElement('span');
            votes.className = 'muted';
            votes.textContent = ` (${suggestion.votes})`;
            item.append(link, votes);
            return item;
          }),
        );
        box.hidden = suggestions.length === 0;
        // The reader has seen the similar ideas: the server need not show them once more.
        const seen = /** @type {HTMLInputElement | null} */ (title.form?.querySelector('input[name="seenSimilar"]'));
        if (seen && suggestions.length > 0) seen.value = '1';
      } catch {
        box.hidden = true;
      }
    }, 250);
  });
}

enhanceVotes();
enhanceSuggestions();

// The board's one script: it enhances pages that work without it. Votes and follows go through
// fetch and update in place; the submit form suggests similar ideas as the title is typed.
// Plain JavaScript served as written (no build), type-checked through JSDoc (tsconfig.json here).
// @ts-check

/** @typedef {{ voted: boolean, voteCount: number, label: string, countText: string, following: boolean, followLabel: string, followText: string }} VoteAnswer */
/** @typedef {{ title: string, url: string, votes: string }} Suggestion */

function enhanceVotes() {
  for (const form of /** @type {NodeListOf<HTMLFormElement>} */ (document.querySelectorAll('form[data-vote]'))) {
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const button = /** @type {HTMLButtonElement | null} */ (form.querySelector('button[type="submit"]'));
      // Busy, not disabled: a disabled button loses the keyboard focus (it would drop to <body>).
      if (!button || button.getAttribute('aria-disabled') === 'true') return;
      button.setAttribute('aria-disabled', 'true');
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
        const id = form.dataset['vote'];
        const count = document.querySelector(`[data-vote-count="${id}"]`);
        if (count) count.textContent = answer.countText;
        // Voting follows the idea: the follow button and line say so at once.
        const follow = document.querySelector(`form[data-follow="${id}"]`);
        const followButton = follow?.querySelector('button[type="submit"]');
        const followIntent = /** @type {HTMLInputElement | null | undefined} */ (
          follow?.querySelector('input[name="intent"]')
        );
        if (followButton && followIntent) {
          followIntent.value = answer.following ? 'unfollow' : 'follow';
          followButton.setAttribute('aria-pressed', String(answer.following));
          followButton.textContent = answer.followLabel;
        }
        const followText = document.querySelector(`[data-follow-text="${id}"]`);
        if (followText) followText.textContent = answer.followText;
      } catch {
        form.submit();
      } finally {
        button.removeAttribute('aria-disabled');
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

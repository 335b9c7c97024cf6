import { ApiError, SdkError, createReporter } from '@signpost/sdk-core';
import { createFeatureReporter, type FeatureReporter } from '../client.js';
import type { FeatureType, WidgetPerson } from '../types.js';
import { FEEDBACK_LIMITS, validateFeedback, type FeedbackIssue } from '../validate.js';
import { anonymousVoterId } from '../voter.js';
import { fill, myIdeasHtml, reportContext, suggestionsHtml, takeScreenshot, votesText } from './parts.js';
import { widgetMarkup } from './markup.js';
import type {
  FeedbackErrorDetail,
  FeedbackSubmitDetail,
  FeedbackWidgetElement,
  FeedbackWidgetOptions,
  WidgetUser,
} from './options.js';
import { DEFAULT_TEXTS, GERMAN_TEXTS, type FeedbackWidgetTexts } from './texts.js';

let counter = 0;

/** Builds the element class; only called where `HTMLElement` exists. */
export function createWidgetClass(): { new (): FeedbackWidgetElement } {
  return class SignpostFeedback extends HTMLElement implements FeedbackWidgetElement {
    static get observedAttributes() {
      return ['api-key', 'base-url', 'hide-type', 'hide-email'];
    }

    private _options: FeedbackWidgetOptions = {};
    private _client: FeatureReporter | undefined;
    private _root: ShadowRoot;
    private _id = `sp${++counter}`;
    private _returnFocus: HTMLElement | null = null;
    private _busy = false;
    private _shot: Blob | undefined;
    private _typed = 0;
    private _timer: ReturnType<typeof setTimeout> | undefined;

    constructor() {
      super();
      this._root = this.attachShadow({ mode: 'open' });
    }

    connectedCallback() {
      if (!this._root.firstChild) this._render();
    }

    attributeChangedCallback() {
      this._client = undefined;
      if (this._root.firstChild) this._render();
    }

    configure(options: FeedbackWidgetOptions) {
      const looks = (o: FeedbackWidgetOptions) =>
        JSON.stringify([o.texts, o.showType, o.showEmail, o.nonce, o.locale, o.screenshot, !!o.user?.token]);
      const before = looks(this._options);
      this._options = { ...this._options, ...options, texts: { ...this._options.texts, ...options.texts } };
      this._client = undefined;
      // Re-render only when what is shown changed, so a half-filled form survives.
      if (this._root.firstChild && looks(this._options) !== before) this._render();
    }

    identify(user: WidgetUser | null) {
      this.configure({ user });
    }

    get isOpen() {
      return !!this._dialog?.open;
    }

    open() {
      const dialog = this._dialog;
      if (!dialog || dialog.open) return;
      this._returnFocus = deepActiveElement();
      this._showForm();
      dialog.showModal();
      this._q<HTMLButtonElement>('.trigger')?.setAttribute('aria-expanded', 'true');
      (
        this._q<HTMLInputElement>('input[name="type"]:checked') ?? this._q<HTMLInputElement>('input[name="title"]')
      )?.focus();
      this._emit('signpost-feedback-open', {});
    }

    close() {
      if (this._dialog?.open) this._dialog.close();
    }

    private get _dialog() {
      return this._q<HTMLDialogElement>('dialog');
    }

    private get _texts(): FeedbackWidgetTexts {
      const lang =
        this._options.locale ?? (this.closest('[lang]')?.getAttribute('lang') || document.documentElement.lang);
      return { ...(/^de\b/i.test(lang ?? '') ? GERMAN_TEXTS : DEFAULT_TEXTS), ...this._options.texts };
    }

    /** Who votes and files: the signed token, else this browser's anonymous id. */
    private get _person(): WidgetPerson {
      const token = this._options.user?.token;
      return token ? { token } : { visitorId: anonymousVoterId() };
    }

    private _q<T extends Element>(selector: string): T | null {
      return this._root.querySelector<T>(selector);
    }

    private _emit(type: string, detail: unknown) {
      this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
    }

    private _flag(name: 'showType' | 'showEmail', attribute: string) {
      return this._options[name] ?? !this.hasAttribute(attribute);
    }

    private _render() {
      const t = this._texts;
      const id = this._id;
      const L = FEEDBACK_LIMITS;
      // Browsers hide the nonce attribute of a connected element under a CSP; the property keeps it.
      const nonce = this._options.nonce || this.nonce || this.getAttribute('nonce');
      const wasOpen = this.isOpen;
      const identified = !!this._options.user?.token;
      if (wasOpen) this._dialog!.close();
      this._root.innerHTML = widgetMarkup({
        id,
        texts: t,
        nonce,
        identified,
        showType: this._flag('showType', 'hide-type'),
        showEmail: this._flag('showEmail', 'hide-email'),
        screenshot: this._options.screenshot !== false,
      });

      const dialog = this._dialog!;
      this._q('.trigger')!.addEventListener('click', () => this.open());
      this._q('.close')!.addEventListener('click', () => this.close());
      this._q('.done button')!.addEventListener('click', () => this.close());
      // A click on the backdrop (outside .inner) closes, like Escape.
      dialog.addEventListener('click', (event) => {
        if (event.target === dialog) this.close();
      });
      dialog.addEventListener('close', () => {
        this._q('.trigger')?.setAttribute('aria-expanded', 'false');
        const target = this._returnFocus?.isConnected ? this._returnFocus : this._q<HTMLElement>('.trigger');
        target?.focus();
        this._returnFocus = null;
        this._emit('signpost-feedback-close', {});
      });
      const form = this._q<HTMLFormElement>('form')!;
      const description = this._q<HTMLTextAreaElement>('textarea')!;
      description.addEventListener('input', () => {
        this._q('.count')!.textContent = `${description.value.length} / ${L.descriptionMax}`;
      });
      form.addEventListener('input', (event) => {
        const field = (event.target as HTMLInputElement).name;
        if (this._q(`#${id}-${field}-error:not([hidden])`))
          this._showIssues(
            this._issues().filter((i) => i.field === field),
            false,
            field,
          );
      });
      const title = this._q<HTMLInputElement>('input[name="title"]')!;
      title.addEventListener('input', () => this._suggestSoon(title.value));
      form.addEventListener('change', () => this._syncType());
      this._q('.suggest ul')!.addEventListener('click', (event) => {
        const button = (event.target as Element).closest<HTMLButtonElement>('button.vote');
        if (button) void this._vote(button);
      });
      this._q('.shot-add')?.addEventListener('click', () => void this._capture());
      this._q('.shot-remove')?.addEventListener('click', () => this._setShot(undefined));
      this._q('.mine-toggle')?.addEventListener('click', () => void this._showMine());
      this._q('.mine .back')!.addEventListener('click', () => {
        this._showForm();
        this._q<HTMLElement>('.mine-toggle')?.focus();
      });
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        void this._submit();
      });
      if (wasOpen) dialog.showModal();
    }

    private _values() {
      const form = this._q<HTMLFormElement>('form')!;
      const data = new FormData(form);
      const get = (name: string) => (data.get(name) as string | null) ?? '';
      return {
        type: (get('type') || 'feature') as FeatureType,
        title: get('title'),
        description: get('description'),
        contactEmail: get('contactEmail'),
      };
    }

    private _issues(): FeedbackIssue[] {
      return validateFeedback(this._values());
    }

    /** Marks fields; `only` limits the update to one field (live re-validation). */
    private _showIssues(issues: FeedbackIssue[], focus: boolean, only?: string) {
      const t = this._texts;
      const L = FEEDBACK_LIMITS;
      for (const field of ['title', 'description', 'contactEmail'] as const) {
        if (only && only !== field) continue;
        const input = this._q<HTMLInputElement>(`[name="${field}"]`);
        const error = this._q<HTMLElement>(`#${this._id}-${field}-error`);
        if (!input || !error) continue;
        const issue = issues.find((i) => i.field === field);
        const limits =
          field === 'title' ? { min: L.titleMin, max: L.titleMax } : { min: L.descriptionMin, max: L.descriptionMax };
        const text = !issue
          ? ''
          : issue.code === 'required'
            ? t.required
            : issue.code === 'too_short'
              ? fill(t.tooShort, limits)
              : issue.code === 'too_long'
                ? fill(t.tooLong, limits)
                : issue.code === 'invalid_email'
                  ? t.invalidEmail
                  : issue.message;
        error.textContent = text;
        error.hidden = !issue;
        if (issue) input.setAttribute('aria-invalid', 'true');
        else input.removeAttribute('aria-invalid');
      }
      if (focus && issues[0]) this._q<HTMLElement>(`[name="${issues[0].field}"]`)?.focus();
    }

    private _showForm() {
      const form = this._q<HTMLFormElement>('form')!;
      this._q<HTMLElement>('.done')!.hidden = true;
      this._q<HTMLElement>('.mine')!.hidden = true;
      form.hidden = false;
      this._q('.alert')!.textContent = '';
      this._syncType();
    }

    /** The screenshot is offered on bug reports only. */
    private _syncType() {
      const shot = this._q<HTMLElement>('.shot');
      if (shot) shot.hidden = this._values().type !== 'bug';
    }

    /** Similar ideas for the title being typed, once typing pauses; a late answer for older text is dropped. */
    private _suggestSoon(text: string) {
      clearTimeout(this._timer);
      const box = this._q<HTMLElement>('.suggest')!;
      const client = this._getClient();
      if (this._options.suggestions === false || !client || text.trim().length < FEEDBACK_LIMITS.titleMin) {
        box.hidden = true;
        return;
      }
      const turn = ++this._typed;
      this._timer = setTimeout(async () => {
        try {
          const person = this._person;
          // A token the server refuses still gets the suggestions (public anyway); votes with it are refused.
          const { ideas } = await client
            .suggest(text, person, 3)
            .catch((error: unknown) =>
              person.token && error instanceof ApiError && error.status === 401
                ? client.suggest(text, {}, 3)
                : Promise.reject(error),
            );
          if (turn !== this._typed) return;
          this._q('.suggest ul')!.innerHTML = suggestionsHtml(ideas, this._texts, this._id);
          const shown = ideas.length > 0;
          if (shown && box.hidden) this._announce(fill(this._texts.similarFound, { count: ideas.length }));
          box.hidden = !shown;
        } catch (error) {
          // Suggestions are a help, not a step: the form works without them.
          createReporter(this._options.onError)(error);
        }
      }, 300);
    }

    private async _vote(button: HTMLButtonElement) {
      const t = this._texts;
      const client = this._getClient();
      const featureId = button.dataset['id']!;
      const on = button.getAttribute('aria-pressed') !== 'true';
      if (!client || button.disabled) return;
      button.disabled = true;
      try {
        const state = await client.voteAs(featureId, this._person, on);
        button.setAttribute('aria-pressed', String(state.voted));
        button.textContent = state.voted ? t.voted : t.vote;
        const count = [...this._root.querySelectorAll<HTMLElement>('[data-votes]')].find(
          (el) => el.dataset['votes'] === featureId,
        );
        if (count) count.textContent = votesText(t, state.voteCount);
        if (state.voted) this._announce(t.voteThanks);
        this._emit('signpost-feedback-vote', state);
      } catch (error) {
        this._q('.alert')!.textContent =
          error instanceof ApiError && error.status === 401 ? t.signInToVote : t.voteFailed;
        createReporter(this._options.onError)(error);
      } finally {
        button.disabled = false;
      }
    }

    private async _capture() {
      const t = this._texts;
      const add = this._q<HTMLButtonElement>('.shot-add')!;
      add.disabled = true;
      add.textContent = t.screenshotTaking;
      try {
        this._setShot(await takeScreenshot(this));
        this._q<HTMLElement>('.shot-remove')?.focus();
      } catch (error) {
        this._q('.alert')!.textContent = t.screenshotFailed;
        createReporter(this._options.onError)(error);
      } finally {
        add.disabled = false;
        add.textContent = t.screenshotAdd;
      }
    }

    /** Shows the screenshot that will be sent (or none); the user can remove it before sending. */
    private _setShot(blob: Blob | undefined) {
      const figure = this._q<HTMLElement>('.shot figure');
      const img = this._q<HTMLImageElement>('.shot img');
      if (!figure || !img) return;
      if (img.src) URL.revokeObjectURL(img.src);
      this._shot = blob;
      if (blob) img.src = URL.createObjectURL(blob);
      else img.removeAttribute('src');
      figure.hidden = !blob;
      this._q<HTMLElement>('.shot-add')!.hidden = !!blob;
      if (!blob) this._q<HTMLElement>('.shot-add')!.focus();
    }

    private async _showMine() {
      const client = this._getClient();
      const mine = this._q<HTMLElement>('.mine')!;
      if (!client) return;
      try {
        const { ideas } = await client.myIdeas(this._person);
        mine.querySelector('ul')!.innerHTML = myIdeasHtml(ideas, this._texts);
        this._q<HTMLElement>('form')!.hidden = true;
        this._q<HTMLElement>('.done')!.hidden = true;
        mine.hidden = false;
        mine.querySelector<HTMLElement>('h3')!.focus();
      } catch (error) {
        this._q('.alert')!.textContent = this._texts.failed;
        createReporter(this._options.onError)(error);
      }
    }

    private _announce(text: string) {
      const status = this._q<HTMLElement>('[role="status"]')!;
      status.textContent = '';
      // A fresh text node after a tick makes screen readers announce repeated messages too.
      setTimeout(() => (status.textContent = text), 50);
    }

    private _getClient(): FeatureReporter | undefined {
      if (this._client) return this._client;
      const apiKey = this._options.apiKey ?? this.getAttribute('api-key') ?? undefined;
      if (!apiKey) return undefined;
      const baseUrl = this._options.baseUrl ?? this.getAttribute('base-url') ?? undefined;
      this._client = createFeatureReporter({
        apiKey,
        channel: 'widget',
        ...(baseUrl ? { baseUrl } : {}),
        ...(this._options.fetch ? { fetch: this._options.fetch } : {}),
        maxRetries: 2,
      });
      return this._client;
    }

    private async _submit() {
      if (this._busy) return;
      const t = this._texts;
      const alert = this._q<HTMLElement>('.alert')!;
      alert.textContent = '';
      const issues = this._issues();
      this._showIssues(issues, true);
      if (issues.length) {
        this._announce(t.fixFields);
        return;
      }
      const report = createReporter(this._options.onError);
      const client = this._getClient();
      if (!client) {
        alert.textContent = t.notConfigured;
        const error = new SdkError('invalid_options', 'signpost-feedback: no api-key set');
        report(error);
        this._emit('signpost-feedback-error', { error } satisfies FeedbackErrorDetail);
        return;
      }
      const submit = this._q<HTMLButtonElement>('.submit')!;
      const form = this._q<HTMLFormElement>('form')!;
      this._busy = true;
      submit.disabled = true;
      submit.textContent = t.sending;
      form.setAttribute('aria-busy', 'true');
      try {
        const values = this._values();
        const input = {
          ...values,
          metadata: { ...reportContext(values.type, this._options.release), ...this._options.metadata },
        };
        const person = this._person;
        const feature = person.token ? await client.submitAs(input, person) : await client.submit(input);
        const shot = values.type === 'bug' ? this._shot : undefined;
        if (shot) {
          // The report is filed either way; a screenshot that fails is reported, not shown as a failure.
          await client.attach(feature.id, shot).catch(createReporter(this._options.onError));
        }
        this._setShot(undefined);
        // A lookup still in flight must not answer after the thank-you (its announcement would
        // replace it): the form it was for is gone.
        clearTimeout(this._timer);
        this._typed++;
        this._q<HTMLElement>('.suggest')!.hidden = true;
        form.reset();
        this._q('.count')!.textContent = `0 / ${FEEDBACK_LIMITS.descriptionMax}`;
        form.hidden = true;
        this._q<HTMLElement>('.done')!.hidden = false;
        this._q<HTMLElement>('.done button')!.focus();
        this._announce(t.thanks);
        this._emit('signpost-feedback-submit', { feature } satisfies FeedbackSubmitDetail);
      } catch (error) {
        const details = error instanceof ApiError && error.status === 400 ? (error.body.details ?? []) : [];
        const fieldIssues = details
          .filter((d) => d.field === 'title' || d.field === 'description' || d.field === 'contactEmail')
          .map((d) => ({ field: d.field, code: 'invalid', message: d.message }) as FeedbackIssue);
        if (fieldIssues.length) this._showIssues(fieldIssues, true);
        const limited =
          (error instanceof ApiError && error.status === 429) ||
          (error instanceof SdkError && error.code === 'rate_limited');
        alert.textContent = limited ? t.rateLimited : fieldIssues.length ? t.fixFields : t.failed;
        report(error);
        this._emit('signpost-feedback-error', { error } satisfies FeedbackErrorDetail);
      } finally {
        this._busy = false;
        submit.disabled = false;
        submit.textContent = t.submit;
        form.removeAttribute('aria-busy');
      }
    }
  };
}

function deepActiveElement(): HTMLElement | null {
  let active = document.activeElement as HTMLElement | null;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement as HTMLElement;
  return active;
}

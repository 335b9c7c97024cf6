/**
 * The widget's Shadow DOM markup: the launcher, the dialog with the form, "my ideas", the thank-you
 * and the live region. Pure (texts and switches in, HTML out); every user-visible text is escaped.
 * element.ts renders it and wires the events.
 */
import type { FeatureType } from '../types.js';
import { FEEDBACK_LIMITS } from '../validate.js';
import { esc } from './parts.js';
import { WIDGET_CSS } from './styles.js';
import type { FeedbackWidgetTexts } from './texts.js';

export interface WidgetMarkupInput {
  /** Prefix of the element ids inside the shadow root (one per widget on a page). */
  id: string;
  texts: FeedbackWidgetTexts;
  /** The CSP nonce for the <style> element, when the page uses one. */
  nonce: string | null | undefined;
  /** A signed-in user: shows "my ideas". */
  identified: boolean;
  showType: boolean;
  showEmail: boolean;
  screenshot: boolean;
}

export function widgetMarkup(m: WidgetMarkupInput): string {
  const choice = (value: FeatureType, label: string, checked: boolean) =>
    `<label class="choice" part="choice"><input type="radio" name="type" value="${value}"${checked ? ' checked' : ''}><span>${esc(label)}</span></label>`;
  return `
<style${m.nonce ? ` nonce="${esc(m.nonce)}"` : ''}>${WIDGET_CSS}</style>
<button class="trigger" part="trigger" type="button" aria-haspopup="dialog" aria-expanded="false" aria-controls="${m.id}-dialog">${esc(m.texts.trigger)}</button>
<dialog id="${m.id}-dialog" part="panel" aria-labelledby="${m.id}-heading" aria-describedby="${m.id}-intro">
 <div class="inner">
  <div class="head">
   <h2 id="${m.id}-heading" part="heading" tabindex="-1">${esc(m.texts.heading)}</h2>
   ${m.identified ? `<button class="mine-toggle" part="my-ideas-button" type="button" aria-controls="${m.id}-mine">${esc(m.texts.myIdeas)}</button>` : ''}
   <button class="close" part="close" type="button" aria-label="${esc(m.texts.close)}">&times;</button>
  </div>
  <form part="form" novalidate>
   <p class="intro" id="${m.id}-intro">${esc(m.texts.intro)}</p>
   ${m.showType ? `<fieldset part="field type"><legend>${esc(m.texts.typeLegend)}</legend>${choice('feature', m.texts.typeFeature, true)}${choice('bug', m.texts.typeBug, false)}</fieldset>` : ''}
   <div class="field" part="field title">
    <label for="${m.id}-title">${esc(m.texts.title)}</label>
    <input part="input" id="${m.id}-title" name="title" type="text" required minlength="${FEEDBACK_LIMITS.titleMin}" maxlength="${FEEDBACK_LIMITS.titleMax}" autocomplete="off" placeholder="${esc(m.texts.titlePlaceholder)}" aria-describedby="${m.id}-title-error">
    <p class="error" part="error" id="${m.id}-title-error" hidden></p>
   </div>
   <div class="suggest" part="suggestions" hidden><p id="${m.id}-similar"><strong>${esc(m.texts.similarHeading)}</strong> ${esc(m.texts.similarHint)}</p><ul aria-labelledby="${m.id}-similar"></ul></div>
   <div class="field" part="field description">
    <label for="${m.id}-description">${esc(m.texts.description)}</label>
    <textarea part="input textarea" id="${m.id}-description" name="description" required minlength="${FEEDBACK_LIMITS.descriptionMin}" maxlength="${FEEDBACK_LIMITS.descriptionMax}" placeholder="${esc(m.texts.descriptionPlaceholder)}" aria-describedby="${m.id}-description-error ${m.id}-count"></textarea>
    <div class="meta"><p class="error" part="error" id="${m.id}-description-error" hidden></p><span id="${m.id}-count" class="count">0 / ${FEEDBACK_LIMITS.descriptionMax}</span></div>
   </div>
   ${
     m.showEmail
       ? `<div class="field" part="field email">
    <label for="${m.id}-email">${esc(m.texts.email)} <span class="optional">${esc(m.texts.optional)}</span></label>
    <input part="input" id="${m.id}-email" name="contactEmail" type="email" autocomplete="email" maxlength="320" aria-describedby="${m.id}-contactEmail-error">
    <p class="error" part="error" id="${m.id}-contactEmail-error" hidden></p>
   </div>`
       : ''
   }
   ${
     m.screenshot
       ? `<div class="shot" part="screenshot" hidden><button type="button" class="shot-add" part="screenshot-button">${esc(m.texts.screenshotAdd)}</button>
    <figure hidden><img alt="${esc(m.texts.screenshotAlt)}"><figcaption>${esc(m.texts.screenshotHint)} <button type="button" class="shot-remove" part="screenshot-remove">${esc(m.texts.screenshotRemove)}</button></figcaption></figure></div>`
       : ''
   }
   <div class="actions"><p class="alert" part="alert" role="alert"></p><button class="submit" part="submit" type="submit">${esc(m.texts.submit)}</button></div>
  </form>
  <div class="mine" id="${m.id}-mine" part="my-ideas" hidden><h3 tabindex="-1">${esc(m.texts.myIdeasHeading)}</h3><ul></ul><button type="button" class="back" part="submit back">${esc(m.texts.back)}</button></div>
  <div class="done" part="done" hidden><p id="${m.id}-done">${esc(m.texts.thanks)}</p><button type="button" part="submit done-button" aria-describedby="${m.id}-done">${esc(m.texts.done)}</button></div>
 </div>
</dialog>
<div class="sr-only" role="status" aria-live="polite" aria-atomic="true"></div>`;
}

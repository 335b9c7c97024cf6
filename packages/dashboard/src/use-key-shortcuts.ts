/**
 * Single-key shortcuts for what a screen repeats (j / k through a list, older and newer events).
 * Never while typing in a field (inputs, text areas, selects, editors), with a modifier held, or
 * with a dialog open; a key another handler already took is left alone.
 */
import { useEffect, useRef } from 'react';

/** Typing in a field, or a control whose own keys these are. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement)
    return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
  return false;
}

/** Whether a keydown is a shortcut's at all (no modifier, not typed into a field, no dialog open). */
export function isShortcutKey(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return false;
  if (isTyping(event.target)) return false;
  return document.querySelector('[role="dialog"], [role="alertdialog"]') === null;
}

/** Runs `keys[event.key]` on a shortcut key; the handlers may change on every render. */
export function useKeyShortcuts(keys: Record<string, () => void>): void {
  const latest = useRef(keys);
  latest.current = keys;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isShortcutKey(event)) return;
      const run = Object.hasOwn(latest.current, event.key) ? latest.current[event.key] : undefined;
      if (!run) return;
      event.preventDefault();
      run();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

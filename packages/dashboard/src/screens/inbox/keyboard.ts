/**
 * The inbox's keyboard shortcuts, for what a triage session repeats. Never while typing in a field
 * (inputs, text areas, selects, editors), with a modifier held, or with a dialog open. Each move
 * is announced in the inbox's live region; each jump lands the focus on a real control, so a
 * screen reader reads it too.
 */
import { useEffect, useRef } from 'react';
import type { ManagedFeature } from '../../api/features.ts';
import { statusLabel } from '../../api/features.ts';
import { isShortcutKey } from '../../use-key-shortcuts.ts';

export const SHORTCUTS: readonly { keys: string[]; what: string }[] = [
  { keys: ['j', '↓'], what: 'Next idea (opens it when one is open)' },
  { keys: ['k', '↑'], what: 'Previous idea' },
  { keys: ['Enter', 'o'], what: 'Open the idea' },
  { keys: ['s'], what: 'Change the status' },
  { keys: ['r'], what: 'Reply as the team' },
  { keys: ['n'], what: 'Internal note for the team' },
  { keys: ['t'], what: 'Tags' },
  { keys: ['e'], what: 'Edit title and description' },
  { keys: ['m'], what: 'Merge into another idea (arrows choose, Enter merges)' },
  { keys: ['x'], what: 'Select the idea for a bulk change' },
  { keys: ['?'], what: 'Show these shortcuts' },
];

export interface InboxKeyTargets {
  rows: ManagedFeature[];
  cursorId: string | null;
  setCursorId: (id: string) => void;
  openId: string | null;
  open: (id: string) => void;
  admin: boolean;
  toggleSelected: (id: string) => void;
  showHelp: () => void;
  announce: (text: string) => void;
}

const detail = () => document.getElementById('inbox-detail');

function focusIn(selector: string): HTMLElement | null {
  const element = detail()?.querySelector<HTMLElement>(selector) ?? null;
  if (element) {
    element.focus();
    element.scrollIntoView({ block: 'center' });
  }
  return element;
}

function buttonNamed(name: string): HTMLButtonElement | null {
  const buttons = detail()?.querySelectorAll<HTMLButtonElement>('button') ?? [];
  return [...buttons].find((button) => button.textContent?.trim() === name) ?? null;
}

export function useInboxKeys(targets: InboxKeyTargets): void {
  const latest = useRef(targets);
  latest.current = targets;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isShortcutKey(event)) return;
      const t = latest.current;
      const inList = event.target instanceof Element && event.target.closest('.inbox-table') !== null;
      const index = t.rows.findIndex((row) => row.id === (t.cursorId ?? t.openId));
      const needIdea = (what: string) => {
        if (t.openId === null) t.announce(`Open an idea first (Enter or o), then ${what}.`);
        return t.openId !== null;
      };
      const handled = (() => {
        switch (event.key) {
          case 'j':
          case 'k':
          case 'ArrowDown':
          case 'ArrowUp': {
            if (event.key.startsWith('Arrow') && !inList) return false;
            if (t.rows.length === 0) return true;
            const down = event.key === 'j' || event.key === 'ArrowDown';
            const next = index < 0 ? 0 : Math.min(t.rows.length - 1, Math.max(0, index + (down ? 1 : -1)));
            const row = t.rows[next]!;
            t.setCursorId(row.id);
            document.querySelector<HTMLElement>(`tr[data-row="${row.id}"] .inbox-title a`)?.focus();
            if (t.openId !== null && row.id !== t.openId) t.open(row.id);
            const votes = row.voteCount === 1 ? '1 vote' : `${row.voteCount} votes`;
            t.announce(`${row.title}: ${statusLabel(row.status)}, ${votes}. ${next + 1} of ${t.rows.length}.`);
            return true;
          }
          case 'o': {
            const row = t.rows[index];
            if (row) t.open(row.id);
            return row !== undefined;
          }
          case 's':
            if (!needIdea('change its status')) return true;
            if (!focusIn('select[name="status"]')) t.announce('Only admins and owners change the status.');
            return true;
          case 'r':
          case 'n': {
            if (!needIdea(event.key === 'r' ? 'reply' : 'add a note')) return true;
            const box = detail()?.querySelector<HTMLInputElement>('input[name="teamOnly"]');
            if (box && box.checked !== (event.key === 'n')) box.click();
            if (!focusIn('textarea[name="reply"]')) t.announce('Replies need the reply box; it is not shown here.');
            return true;
          }
          case 't':
            if (!needIdea('tag it')) return true;
            if (!focusIn('.feature-tags input[type="checkbox"]') && !focusIn('.feature-new-tag input'))
              t.announce('Only admins and owners change tags.');
            return true;
          case 'e': {
            if (!needIdea('edit it')) return true;
            const edit = buttonNamed('Edit title and description');
            if (edit) edit.click();
            else t.announce('Only admins and owners edit ideas.');
            return true;
          }
          case 'm': {
            if (!needIdea('merge it')) return true;
            // The first candidate, chosen: the arrow keys choose another, Enter asks to confirm the merge.
            const candidate = focusIn('input[name="merge-target"]') as HTMLInputElement | null;
            if (candidate) {
              if (!candidate.checked) candidate.click();
              t.announce('Merge: the arrow keys choose the idea to keep, Enter merges into it (you confirm first).');
            } else if (focusIn('section[aria-labelledby="merge-title"] input')) {
              t.announce('Merge: no similar idea. Type words of the idea to keep, Enter finds it.');
            } else t.announce('Only admins and owners merge ideas.');
            return true;
          }
          case 'x': {
            const row = t.rows[index];
            if (!row || !t.admin) return false;
            t.toggleSelected(row.id);
            return true;
          }
          case '?':
            t.showHelp();
            return true;
          default:
            return false;
        }
      })();
      if (handled) event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

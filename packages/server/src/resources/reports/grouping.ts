/**
 * The grouping key of an error event (issue 31), as Sentry, GlitchTip and Bugsink group:
 *
 * 1. the event's `fingerprint` when sent, each `{{ default }}` in it standing for the default key's parts;
 * 2. else the exception type plus the in-app frames of its stack (module or file, and function; no line
 *    or column numbers, so a rebuild or an edit above the frame keeps the group); every frame when
 *    none is marked in-app;
 * 3. else the exception type and the message, with its variable parts normalised: UUIDs, e-mail
 *    addresses, hex values, quoted values and numbers ("order o_101 not found" and "order o_102 not
 *    found" are one group).
 *
 * The key is a hash of those parts; the group's scope (project, key environment, SDK environment) is
 * kept beside it, not in it.
 */
import { hash } from 'node:crypto';

export interface Frame {
  filename?: string;
  module?: string;
  function?: string;
  in_app?: boolean;
}

/** What grouping reads of an event. */
export interface GroupingInput {
  fingerprint?: readonly unknown[];
  type?: string;
  value?: string;
  /** Oldest call first, as Sentry sends them. */
  frames?: readonly Frame[];
}

const UUID = /\b[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\b/gi;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const HEX = /\b0x[0-9a-f]+\b|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi;
const QUOTED = /'[^'\n]{0,200}'|"[^"\n]{0,200}"|`[^`\n]{0,200}`/g;
const NUMBER = /\d+(?:\.\d+)?/g;

/** The message with its variable parts replaced, so that messages differing only there match. */
export function normaliseMessage(message: string): string {
  return message
    .slice(0, 2000)
    .replace(UUID, '<uuid>')
    .replace(EMAIL, '<email>')
    .replace(QUOTED, '<value>')
    .replace(HEX, '<hex>')
    .replace(NUMBER, '<n>')
    .trim();
}

/** A frame's place without line numbers: its module, else its file without query or hash. */
function frameName(frame: Frame): string {
  const place = frame.module ?? frame.filename?.replace(/[?#].*$/, '') ?? '?';
  return `${place}|${frame.function ?? '?'}`;
}

/** The frames that group: the in-app ones, or every one when none is marked in-app. */
export function groupingFrames(frames: readonly Frame[] | undefined): readonly Frame[] {
  if (!frames || frames.length === 0) return [];
  const inApp = frames.filter((frame) => frame.in_app === true);
  return inApp.length > 0 ? inApp : frames;
}

/** The default key's parts: type and frames, else type and the normalised message. */
export function defaultParts(input: GroupingInput): string[] {
  const frames = groupingFrames(input.frames).filter((frame) => frame.function || frame.module || frame.filename);
  if (frames.length > 0) return ['stack', input.type ?? '', ...frames.map(frameName)];
  return ['message', input.type ?? '', normaliseMessage(input.value ?? '')];
}

const DEFAULT = /^\{\{\s*default\s*\}\}$/i;

export function groupKeyOf(input: GroupingInput): string {
  const sent = input.fingerprint?.filter((part) => typeof part === 'string' || typeof part === 'number');
  const parts =
    sent && sent.length > 0
      ? [
          'fingerprint',
          ...sent.flatMap((part) => (DEFAULT.test(String(part)) ? defaultParts(input) : [String(part).slice(0, 500)])),
        ]
      : defaultParts(input);
  return hash('sha256', parts.join('\u0000')).slice(0, 32);
}

/** The newest in-app frame as "function (file)": where the error happened, as lists show it. */
export function culpritOf(frames: readonly Frame[] | undefined): string | undefined {
  const chosen = groupingFrames(frames);
  const frame = chosen[chosen.length - 1];
  if (!frame) return undefined;
  const place = frame.module ?? frame.filename;
  const name = frame.function ?? '?';
  return (place ? `${name} (${place})` : name).slice(0, 500);
}

const STACK_LINE = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?\s*$/;

/**
 * Frames of a JavaScript stack trace as text (POST /errors' stackTrace), oldest call first as Sentry
 * sends them; a frame is in-app unless it is in node_modules or Node's own code.
 */
export function framesFromStackText(stack: string | undefined): (Frame & { lineno: number; colno: number })[] {
  if (!stack) return [];
  const frames: (Frame & { lineno: number; colno: number })[] = [];
  for (const line of stack.split('\n').slice(0, 200)) {
    const match = STACK_LINE.exec(line);
    if (!match) continue;
    const filename = match[2]!;
    frames.push({
      function: match[1] ?? '<anonymous>',
      filename,
      lineno: Number(match[3]),
      colno: Number(match[4]),
      in_app: !filename.includes('node_modules') && !filename.startsWith('node:'),
    });
  }
  return frames.reverse();
}

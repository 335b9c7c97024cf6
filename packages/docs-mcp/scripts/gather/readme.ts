import type { ReadmeSection } from '../../src/content.ts';

export interface ParsedReadme {
  title: string | null;
  intro: string;
  sections: ReadmeSection[];
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * Splits a README into its `#` title, the intro before the first `##`, and its `##` sections.
 * Headings inside fenced code blocks are ignored; deeper headings stay inside their section.
 */
export function parseReadme(markdown: string): ParsedReadme {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let title: string | null = null;
  const intro: string[] = [];
  const sections: { title: string; lines: string[] }[] = [];
  let fence: string | null = null;

  for (const line of lines) {
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1]!;
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
    }
    const inFence = fence !== null || fenceMatch !== null;
    if (!inFence) {
      const h1 = /^#\s+(.*?)\s*#*\s*$/.exec(line);
      if (h1 && title === null && sections.length === 0) {
        title = h1[1]!;
        continue;
      }
      const h2 = /^##\s+(.*?)\s*#*\s*$/.exec(line);
      if (h2) {
        sections.push({ title: h2[1]!, lines: [] });
        continue;
      }
    }
    (sections.length > 0 ? sections[sections.length - 1]!.lines : intro).push(line);
  }

  return {
    title,
    intro: trimBlankLines(intro),
    sections: sections.map((s) => ({ title: s.title, body: trimBlankLines(s.lines) })),
  };
}

function trimBlankLines(lines: string[]): string {
  return lines
    .join('\n')
    .replace(/^\s*\n/, '')
    .trimEnd();
}

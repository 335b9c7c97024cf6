/** The texts of `<signpost-roadmap>` in English and German (picked by `lang`, else the page's). */
export interface RoadmapTexts {
  heading: string;
  empty: string;
  failed: string;
  /** `{title}` is the item's title. */
  vote: string;
  /** `{n}` is the count. */
  votes: string;
  status: Record<string, string>;
}

export const ROADMAP_TEXTS_EN: RoadmapTexts = {
  heading: 'Roadmap',
  empty: 'Nothing here yet.',
  failed: 'The roadmap could not be loaded.',
  vote: 'Vote for “{title}”',
  votes: '{n} votes',
  status: {
    open: 'Open',
    planned: 'Planned',
    'in-progress': 'In progress',
    'in-review': 'In review',
    accepted: 'Accepted',
    done: 'Done',
    declined: 'Declined',
  },
};

export const ROADMAP_TEXTS_DE: RoadmapTexts = {
  heading: 'Roadmap',
  empty: 'Noch nichts hier.',
  failed: 'Die Roadmap konnte nicht geladen werden.',
  vote: 'Für „{title}“ stimmen',
  votes: '{n} Stimmen',
  status: {
    open: 'Offen',
    planned: 'Geplant',
    'in-progress': 'In Arbeit',
    'in-review': 'In Prüfung',
    accepted: 'Angenommen',
    done: 'Erledigt',
    declined: 'Abgelehnt',
  },
};

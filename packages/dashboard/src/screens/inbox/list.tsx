/**
 * The inbox's list: one dense row per idea (title with its markers, status, votes, value, tags,
 * age; type and comments when there is room), the open idea marked as current, the keyboard's
 * row marked too. Admins tick rows for the bulk bar.
 */
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { type ManagedFeature, statusLabel, when } from '../../api/features.ts';
import { money } from '../../api/people.ts';
import { age } from './view.ts';
import { DataTable } from '../../widgets/data-table.tsx';
import { SelectBox, toggled } from '../../widgets/select-box.tsx';
import { TagChips } from '../../widgets/tag-chips.tsx';

export function FeatureList({
  rows,
  admin,
  selected,
  setSelected,
  base,
  search,
  openId,
  cursorId,
}: {
  rows: ManagedFeature[];
  /** `/projects/<id>/inbox`: a row's link adds its id and the view's search. */
  base: string;
  search: string;
  admin: boolean;
  selected: ReadonlySet<string>;
  setSelected: (next: ReadonlySet<string>) => void;
  /** The idea shown beside the list. */
  openId: string | null;
  /** The row the keyboard is on (j/k). */
  cursorId: string | null;
}) {
  const all = rows.length > 0 && rows.every((row) => selected.has(row.id));
  const some = rows.some((row) => selected.has(row.id));
  const allBox = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (allBox.current) allBox.current.indeterminate = some && !all;
  }, [some, all]);
  return (
    <DataTable
      className="inbox-table"
      label="Ideas"
      wrapClassName="inbox-table-wrap"
      columns={[
        admin && {
          className: 'inbox-check',
          label: (
            <input
              ref={allBox}
              type="checkbox"
              aria-label="Select all on this page"
              checked={all}
              onChange={(event) => setSelected(event.target.checked ? new Set(rows.map((row) => row.id)) : new Set())}
            />
          ),
        },
        'Title',
        { label: 'Type', className: 'inbox-roomy' },
        'Status',
        { label: 'Votes', className: 'num' },
        { label: 'Comments', className: 'num inbox-roomy' },
        { label: <abbr title="Monthly revenue of the voters’ companies">Value</abbr>, className: 'num' },
        'Tags',
        'Age',
      ]}
    >
      {rows.map((row) => (
        <tr
          key={row.id}
          data-row={row.id}
          aria-selected={admin ? selected.has(row.id) : undefined}
          className={`${row.id === openId ? 'inbox-open' : ''}${row.id === cursorId ? ' inbox-cursor' : ''}`}
        >
          {admin ? (
            <td className="inbox-check">
              <SelectBox
                name={row.title}
                checked={selected.has(row.id)}
                onChange={(on) => setSelected(toggled(selected, row.id, on))}
              />
            </td>
          ) : null}
          <td className="inbox-title">
            <Link to={`${base}/${row.id}${search}`} aria-current={row.id === openId ? 'true' : undefined}>
              {row.title}
            </Link>
            {row.internal ? <span className="badge badge-warn inbox-flag">Internal</span> : null}
            {row.triagedAt === null ? <span className="badge badge-muted inbox-flag">Needs triage</span> : null}
            {row.environment === 'test' ? <span className="badge badge-muted inbox-flag">Test key</span> : null}
          </td>
          <td className="inbox-roomy">{row.type === 'bug' ? 'Bug' : 'Feature'}</td>
          <td>
            <span className={`status status-${row.status}`}>{statusLabel(row.status)}</span>
          </td>
          <td className="num">{row.voteCount}</td>
          <td className="num inbox-roomy">{row.commentCount}</td>
          <td className="num">{row.value ? money(row.value) : <span className="muted">–</span>}</td>
          <td>{row.tags.length === 0 ? <span className="muted">–</span> : <TagChips tags={row.tags} />}</td>
          <td className="inbox-age">
            <time dateTime={row.createdAt} title={`Submitted ${when(row.createdAt)}`}>
              {age(row.createdAt)}
            </time>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

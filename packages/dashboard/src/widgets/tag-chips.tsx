/** An idea's tags as chips (the inbox's rows, an idea's page), named "Tags" for screen readers. */
export function TagChips({ tags }: { tags: readonly { id: string; name: string }[] }) {
  return (
    <ul className="tag-list" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag.id} className="tag-chip">
          {tag.name}
        </li>
      ))}
    </ul>
  );
}

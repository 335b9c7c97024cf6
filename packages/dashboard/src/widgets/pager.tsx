/** Previous and next page of a list whose page number lives in the URL; nothing for one page. */
import { Button } from '../ui.tsx';

export function Pager({
  page,
  pages,
  onPage,
  className = 'row',
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  className?: string;
}) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Pages" className={className}>
      <Button variant="secondary" isDisabled={page <= 1} onPress={() => onPage(page - 1)}>
        Previous page
      </Button>
      <Button variant="secondary" isDisabled={page >= pages} onPress={() => onPage(page + 1)}>
        Next page
      </Button>
    </nav>
  );
}

/**
 * A titled part of a screen, drawn as a card: a section named by its heading (for screen readers'
 * landmarks), then its content.
 */
import { type ReactNode, useId } from 'react';

export function Card({
  title,
  className = 'card stack',
  children,
}: {
  title: ReactNode;
  /** The section's classes: a card spaced as a stack unless said otherwise. */
  className?: string;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <section className={className} aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </section>
  );
}

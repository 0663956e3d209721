// A link to one item of the Content page, `/content?scene=<id>` or `/content?mosaic=<id>` (scheduled
// deliveries send such links): which item it names, and a ref that brings the item into view and
// gives it focus once per link, when it is shown (again when the address moves to another link).
import { useRef } from 'preact/hooks';
import { ApiError } from '../../api';

export interface ContentLink { kind: 'scene' | 'mosaic'; id: string }

/** The item the page's address names, if any (a scene when both are given). */
export function contentLink(search: string): ContentLink | undefined {
  const query = new URLSearchParams(search);
  for (const kind of ['scene', 'mosaic'] as const) {
    const id = query.get(kind)?.trim();
    if (id) return { kind, id };
  }
  return undefined;
}

/** What the page says when the linked item cannot be read: the same words for a missing one and one not shared. */
export function linkProblem(link: ContentLink, error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  // 400: not even an id; 404: none, or in a vault the user may not see. Neither tells which.
  if (error.status !== 400 && error.status !== 404) return undefined;
  return `${link.kind === 'scene' ? 'Scene' : 'Mosaic'} not found or not shared with you.`;
}

/**
 * A ref for the linked item's element: scrolled to the middle of the view and focused, once for each
 * link (`key`, the item's id), so later renders leave the reader where they are.
 */
export function useJumpOnce(key: string | undefined): (element: HTMLElement | null) => void {
  const done = useRef<string>();
  return (element) => {
    if (!element || key === undefined || done.current === key) return;
    done.current = key;
    // After this render's layout, so the sections above it have their height.
    requestAnimationFrame(() => {
      element.scrollIntoView({ block: 'center' });
      element.focus({ preventScroll: true });
    });
  };
}

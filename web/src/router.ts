// A minimal history router: the path is the page, the query what the page shows (the Content page's
// `?scene=<id>`); links push state and the hooks re-render on that and on the browser's Back and Forward.
import { useEffect, useState } from 'preact/hooks';

export function navigate(path: string): void {
  if (path === location.pathname + location.search) return;
  history.pushState(null, '', path);
  window.dispatchEvent(new Event('navigated'));
}

/** A part of the address, read again whenever the app navigates or the browser goes back or forward. */
function useAddress(read: () => string): string {
  const [value, setValue] = useState(read);
  useEffect(() => {
    const update = () => setValue(read());
    window.addEventListener('popstate', update);
    window.addEventListener('navigated', update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener('navigated', update);
    };
  }, []);
  return value;
}

export function usePath(): string {
  return useAddress(() => location.pathname);
}

/** The address's query (`?scene=<id>`), so a page follows it while it stays open. */
export function useSearch(): string {
  return useAddress(() => location.search);
}

/** A link that navigates in place (and still opens in a new tab with a modifier key). */
export function onLinkClick(event: MouseEvent, path: string): void {
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  navigate(path);
}

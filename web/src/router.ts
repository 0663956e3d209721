// A minimal history router: the path is the page; links push state and a hook re-renders.
import { useEffect, useState } from 'preact/hooks';

export function navigate(path: string): void {
  if (path === location.pathname + location.search) return;
  history.pushState(null, '', path);
  window.dispatchEvent(new Event('navigated'));
}

export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    window.addEventListener('popstate', update);
    window.addEventListener('navigated', update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener('navigated', update);
    };
  }, []);
  return path;
}

/** A link that navigates in place (and still opens in a new tab with a modifier key). */
export function onLinkClick(event: MouseEvent, path: string): void {
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  navigate(path);
}

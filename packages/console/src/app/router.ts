// History routing under /console: the server answers index.html for every /console/* path.
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/console';

export interface Location {
  path: string;
  query: URLSearchParams;
}

const current = (): Location => {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) || '/' : '/';
  return { path: path.length > 1 ? path.replace(/\/$/, '') : path, query: new URLSearchParams(location.search) };
};

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => listeners.forEach((listener) => listener()));

/** Goes to a console path (`/accounts/...`), as a link would. */
export function navigate(path: string, replace = false): void {
  const url = `${BASE}${path === '/' ? '/' : path}`;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  listeners.forEach((listener) => listener());
}

export function useLocation(): Location {
  const [where, setWhere] = useState(current);
  useEffect(() => {
    const update = () => setWhere(current());
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return where;
}

/** The href of a console path, for <a>. */
export const href = (path: string): string => `${BASE}${path === '/' ? '/' : path}`;

/** Follows a same-page link without reloading (a click with a modifier opens a tab as usual). */
export function followLink(event: MouseEvent): void {
  const anchor = (event.target as Element | null)?.closest?.('a');
  if (!anchor || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  if (anchor.target || anchor.hasAttribute('download') || anchor.origin !== location.origin || !anchor.pathname.startsWith(BASE)) return;
  event.preventDefault();
  navigate(`${anchor.pathname.slice(BASE.length) || '/'}${anchor.search}`);
}

/** The path's parameters when it matches a pattern like `/accounts/:id`, else null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(got[i]!);
    else if (part !== got[i]) return null;
  }
  return params;
}

import { pageArea } from '@dukkan/contract';

/** What a first load starts at once, before the first render (`main.tsx`). */
export interface BootDownloads {
  /** The server-state chunk (`query-root-chunk.ts`), resolved once it has run. */
  loadQueryRoot: () => Promise<{ checkSession: () => void }>;
}

/**
 * Starts the downloads the page at `path` will wait for, so they travel together instead of one
 * after the other. Every page but the login page needs server state; a page that needs a session
 * (the signed-in area, the sign-in portal) asks for it as soon as that chunk has run, rather than
 * after the language has loaded and the first render has mounted the session check. Returns
 * whether the page belongs to the signed-in area, whose texts then load with the language's.
 */
export function startBootDownloads(path: string, downloads: BootDownloads): { signedIn: boolean } {
  const area = pageArea(path);
  if (area !== 'login') {
    const queryRoot = downloads.loadQueryRoot();
    if (area === 'signedIn' || area === 'portal')
      queryRoot.then((chunk) => chunk.checkSession()).catch(() => undefined);
    else queryRoot.catch(() => undefined);
  }
  return { signedIn: area === 'signedIn' };
}

/**
 * Build check (SPEC §4): at start and on every route change the SPA asks for the build id. The
 * first id is remembered; when a later one differs, a new release is out and the page reloads
 * fully. A failed or odd answer is ignored.
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { API_PREFIX } from '../api/fetcher';

export const BUILD_ID_PATH = `${API_PREFIX}/system/get-build-id`;

let firstBuildId: string | null = null;

export async function checkBuildId(reload: () => void = () => window.location.reload()): Promise<void> {
  try {
    const response = await fetch(BUILD_ID_PATH, {
      cache: 'no-store',
      credentials: 'include',
      headers: { accept: 'application/json' },
    });
    if (!response.ok) return;
    const { buildId } = (await response.json()) as { buildId?: unknown };
    if (typeof buildId !== 'string' || buildId === '') return;
    if (firstBuildId === null) firstBuildId = buildId;
    else if (buildId !== firstBuildId) reload();
  } catch {
    // Offline or the API restarting: try again on the next route change.
  }
}

export function useBuildCheck(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    void checkBuildId();
  }, [pathname]);
}

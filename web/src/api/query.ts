/**
 * Reading data: SWR with the spec's defaults (fresh 5 minutes, no retries). A failed query opens
 * the error modal with its friendly heading and 'Request failed with status code {status}'; a
 * 401 drops the stored user and sends the person to sign in.
 */
import useSWR, { useSWRConfig, type SWRConfiguration } from 'swr';
import { QUERY_FRESH_MS, QUERY_RETRIES } from '@platform/domain';
import { handleUnauthorized } from '../session/unauthorized';
import { showErrorModal } from '../shell/error-modal-store';
import { ApiError, apiFetch, apiFetchPage, type Page } from './fetcher';

export function reportQueryError(error: unknown, heading: string): void {
  if (error instanceof ApiError && error.status === 401) {
    handleUnauthorized();
    return;
  }
  showErrorModal({ heading, message: error instanceof Error ? error.message : String(error) });
}

export const swrDefaults: SWRConfiguration = {
  fetcher: (path: string) => apiFetch(path),
  dedupingInterval: QUERY_FRESH_MS,
  focusThrottleInterval: QUERY_FRESH_MS,
  errorRetryCount: QUERY_RETRIES,
  shouldRetryOnError: QUERY_RETRIES > 0,
  onError: (error: unknown) => reportQueryError(error, 'Something went wrong'),
};

/** One API resource, read through SWR; `errorHeading` is what the error modal says on failure. */
export function useApiQuery<T>(path: string | null, { errorHeading }: { errorHeading: string }) {
  return useSWR<T, ApiError>(path, (p: string) => apiFetch<T>(p), {
    onError: (error) => reportQueryError(error, errorHeading),
  });
}

/** A paginated list (rows + x-total-count); the previous page stays on screen while the next loads. */
export function useApiPage<T>(path: string | null, { errorHeading }: { errorHeading: string }) {
  return useSWR<Page<T>, ApiError>(path ? ['page', path] : null, ([, p]: [string, string]) => apiFetchPage<T>(p), {
    keepPreviousData: true,
    onError: (error) => reportQueryError(error, errorHeading),
  });
}

/** After a command: every cached read whose path starts with `prefix` is stale. */
export function useRefreshApi(prefix: string) {
  const { mutate } = useSWRConfig();
  return () =>
    mutate((key) => {
      const path = Array.isArray(key) ? key[1] : key;
      return typeof path === 'string' && path.startsWith(prefix);
    });
}

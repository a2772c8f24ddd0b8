/**
 * Reading data: SWR with the spec's defaults (fresh 5 minutes, no retries). Each query names the
 * heading its error modal shows (`errorHeading` in its SWR config); the app shell's SWRConfig
 * `onError` reads it and opens the modal, or handles a 401. This layer imports no UI.
 */
import useSWR, { useSWRConfig, type SWRConfiguration } from 'swr';
import { QUERY_FRESH_MS, QUERY_RETRIES } from '@platform/domain';
import { ApiError, apiFetch, apiFetchPage, type Page } from './fetcher';

export const DEFAULT_ERROR_HEADING = 'Something went wrong';

/** What a query adds to SWR's config: its error modal's heading, and statuses the page shows itself. */
export interface QueryErrorConfig {
  errorHeading?: string;
  /** Failures with these statuses are the page's to show (no error modal), e.g. 404. */
  quietStatuses?: readonly number[];
}

/** The heading for a failed query (from the config SWR hands to `onError`), or null when it stays quiet. */
export function errorHeadingFor(error: unknown, config: unknown): string | null {
  const { errorHeading, quietStatuses } = (config ?? {}) as QueryErrorConfig;
  if (error instanceof ApiError && quietStatuses?.includes(error.status)) return null;
  return errorHeading ?? DEFAULT_ERROR_HEADING;
}

/** A query's SWR options with its error heading (typed for SWR, which passes unknown keys on). */
export function withErrorHeading<C extends SWRConfiguration>(config: C & QueryErrorConfig): C {
  return config;
}

export const swrDefaults: SWRConfiguration = {
  fetcher: (path: string) => apiFetch(path),
  dedupingInterval: QUERY_FRESH_MS,
  focusThrottleInterval: QUERY_FRESH_MS,
  errorRetryCount: QUERY_RETRIES,
  shouldRetryOnError: QUERY_RETRIES > 0,
};

/**
 * One API resource, read through SWR; `errorHeading` is what the error modal says on failure,
 * `quietStatuses` the failures the page shows itself (no modal).
 */
export function useApiQuery<T>(path: string | null, { errorHeading, quietStatuses }: { errorHeading: string; quietStatuses?: readonly number[] }) {
  return useSWR<T, ApiError>(path, (p: string) => apiFetch<T>(p), withErrorHeading({ errorHeading, quietStatuses }));
}

/** A paginated list (rows + x-total-count); the previous page stays on screen while the next loads. */
export function useApiPage<T>(path: string | null, { errorHeading }: { errorHeading: string }) {
  return useSWR<Page<T>, ApiError>(path ? ['page', path] : null, ([, p]: [string, string]) => apiFetchPage<T>(p), withErrorHeading({ keepPreviousData: true, errorHeading }));
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

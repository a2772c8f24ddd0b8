/**
 * Worklists (issue 30, part 5; docs/worklists.md): the lab's worklist and its per-test counts, the
 * clinic's home counts, and the clinic's result lists searched. The search is a POST (a patient's
 * name never goes into a URL); its SWR key starts with 'result-search' and the list's path, so the
 * clinic's refresh after a command (useRefreshClinic) reads it again.
 */
import useSWR from 'swr';
import type {
  ClinicNeeds, LabWorklistRow, ResultListRow, ResultSearchAnswer, ResultSearchBody, WorklistStatus, WorklistTestCount,
} from '@platform/domain';
import { apiFetch, queryString, type ApiError } from './fetcher';
import { useApiPage, useApiQuery, withErrorHeading } from './query';
import { clinicApiPath, RESULT_LIST_ERROR, type ListParams } from './clinic';

export type { ClinicNeeds, LabWorklistRow, WorklistTestCount };

const WORKLIST_PATH = '/lab-toolbox/worklist';

export interface WorklistParams {
  page: number;
  pageSize: number;
  test?: string | null;
  status?: WorklistStatus | null;
}

export const useLabWorklist = (params: WorklistParams) =>
  useApiPage<LabWorklistRow>(`${WORKLIST_PATH}?${queryString({ ...params })}`, { errorHeading: 'Error retrieving the worklist' });

export const useLabWorklistTests = () => useApiQuery<WorklistTestCount[]>(`${WORKLIST_PATH}/tests`, { errorHeading: 'Error retrieving the worklist' });

export const useClinicNeeds = (accountId: number | null) =>
  useApiQuery<ClinicNeeds>(accountId ? clinicApiPath(accountId, 'needs') : null, { errorHeading: 'Error retrieving what needs your attention' });

type ResultSearchKey = readonly ['result-search', string, ResultSearchBody];

/** One page of a result list's matches for `q` (null: not searching); the previous answer stays on screen while the next loads. */
export function useResultSearch(accountId: number, category: ResultSearchBody['category'], q: string | null, params: ListParams) {
  const { physicianId, ...rest } = params;
  const body: ResultSearchBody | null = q === null ? null : { category, q, ...rest, ...(physicianId ? { physicianId } : {}) };
  const key: ResultSearchKey | null = body ? ['result-search', clinicApiPath(accountId, 'tests/search'), body] : null;
  return useSWR<{ rows: ResultListRow[]; total: number }, ApiError, ResultSearchKey | null>(
    key,
    ([, path, sent]: ResultSearchKey) => apiFetch<ResultSearchAnswer>(path, { method: 'POST', body: sent }),
    withErrorHeading({ keepPreviousData: true, errorHeading: RESULT_LIST_ERROR[category] }),
  );
}

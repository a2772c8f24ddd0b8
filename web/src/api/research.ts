/**
 * The Research Portal's endpoints (/api/provider-research/{accountId}/…) and the study responses
 * both portals fill (…/research-projects, …/study-responses under either portal's base): one SWR
 * hook per resource, the commands, and the paginated lists with their counts. No UI here.
 */
import {
  STUDY_RESPONSE_MESSAGES, TOTAL_INCOMPLETE_HEADER, type CatalogueOption, type CreatedResearchOrder, type ParticipantDetail, type PhysicianOption,
  type ResearchOrderBody, type ResearchProjectView, type ResearchTestRow, type ResearchTestSortField, type ResearchTestsQuery, type StudyResponseSortField, type StudyResponseView,
  type UpdateStudyResponseBody,
} from '@platform/domain';
import { apiFetch, queryString } from './fetcher';
import { useApiPage, useApiQuery, useRefreshApi } from './query';

export type { CreatedResearchOrder, ParticipantDetail, ResearchProjectView, ResearchTestRow, StudyResponseView };

/** Which portal's base a study-response call goes under: the research provider's or a clinic's. */
export type StudyPortal = 'research' | 'clinic';

export const researchApiPath = (accountId: number, path: string) => `/provider-research/${accountId}/${path}`;
const studyBase = (portal: StudyPortal, accountId: number) => (portal === 'research' ? `/provider-research/${accountId}/` : `/provider-clinic/${accountId}/`);

/** After a command: every cached read of this account's research data is stale. */
export const useRefreshResearch = (accountId: number) => useRefreshApi(researchApiPath(accountId, ''));
/** After a study response changes: the lists, counts and participant pages of that portal's account. */
export const useRefreshStudy = (portal: StudyPortal, accountId: number) => useRefreshApi(studyBase(portal, accountId));

export const useResearchCatalogue = (accountId: number) =>
  useApiQuery<CatalogueOption[]>(researchApiPath(accountId, 'tests/catalogue'), { errorHeading: 'Error retrieving tests' });

export const useResearchPhysicians = (accountId: number) =>
  useApiQuery<PhysicianOption[]>(researchApiPath(accountId, 'get-physicians-by-contact'), { errorHeading: 'Error retrieving physicians' });

export const useResearchProjects = (portal: StudyPortal, accountId: number | null, { quietStatuses }: { quietStatuses?: readonly number[] } = {}) =>
  useApiQuery<ResearchProjectView[]>(accountId ? `${studyBase(portal, accountId)}research-projects` : null, { errorHeading: 'Error retrieving research projects', quietStatuses });

/** The tests list's query, as the API validates it. */
export type ResearchTestsParams = ResearchTestsQuery;

export const useResearchTests = (accountId: number, params: ResearchTestsParams) =>
  useApiPage<ResearchTestRow>(researchApiPath(accountId, `tests?${queryString({ ...params })}`), { errorHeading: 'Error retrieving tests' });

export interface StudyResponsesParams {
  page: number;
  pageSize: number;
  sort?: StudyResponseSortField;
  order?: 'asc' | 'desc';
  projectId?: number;
  incomplete?: boolean;
}

/** One page of study responses; `incomplete` is the number of incomplete participants (x-total-incomplete-count). */
export function useStudyResponses(portal: StudyPortal, accountId: number | null, params: StudyResponsesParams) {
  const query = useApiPage<StudyResponseView>(accountId ? `${studyBase(portal, accountId)}study-responses?${queryString({ ...params })}` : null, {
    errorHeading: STUDY_RESPONSE_MESSAGES.listFailed,
  });
  return { ...query, incomplete: query.data?.counts?.[TOTAL_INCOMPLETE_HEADER] };
}

/** The number of incomplete participants of the account, for the navigation's badge. */
export const useIncompleteCount = (portal: StudyPortal, accountId: number | null) =>
  useStudyResponses(portal, accountId, { page: 1, pageSize: 1, incomplete: true }).incomplete;

export const useParticipant = (accountId: number, patientId: number | null, { quietStatuses }: { quietStatuses?: readonly number[] } = {}) =>
  useApiQuery<ParticipantDetail>(patientId ? researchApiPath(accountId, `patient/${patientId}`) : null, { errorHeading: 'Error retrieving patient details', quietStatuses });

export const placeResearchOrder = (accountId: number, body: ResearchOrderBody) =>
  apiFetch<CreatedResearchOrder>(researchApiPath(accountId, 'order'), { method: 'POST', body });

export const shipResearchKits = (accountId: number, sampleIds: number[]) =>
  apiFetch<unknown>(researchApiPath(accountId, 'shipments/create'), { method: 'POST', body: { sampleIds } });

export const updateStudyResponse = (portal: StudyPortal, accountId: number, id: number, body: UpdateStudyResponseBody) =>
  apiFetch<StudyResponseView>(`${studyBase(portal, accountId)}study-responses/${id}/update`, { method: 'POST', body });

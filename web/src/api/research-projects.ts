/**
 * The lab's admin runs research projects and their questionnaire versions (/api/admin/research-projects):
 * the list, one project with its versions, and the commands. No UI here.
 */
import type { AdminResearchProjectRow, AdminResearchProjectView, QuestionnaireDefinition, ResearchProjectBody } from '@platform/domain';
import { apiFetch } from './fetcher';
import { useApiQuery, useRefreshApi } from './query';

export type { AdminResearchProjectRow, AdminResearchProjectView };

const BASE = '/admin/research-projects';
const projectPath = (id: number) => `${BASE}/${id}`;

export const useAdminResearchProjects = () => useApiQuery<AdminResearchProjectRow[]>(BASE, { errorHeading: 'Error retrieving research projects' });
export const useAdminResearchProject = (id: number) => useApiQuery<AdminResearchProjectView>(projectPath(id), { errorHeading: 'Error retrieving the research project' });
/** After a command: the list and every project page are stale. */
export const useRefreshAdminResearch = () => useRefreshApi(BASE);

export const createResearchProject = (body: ResearchProjectBody) => apiFetch<AdminResearchProjectView>(BASE, { method: 'POST', body });
export const updateResearchProject = (id: number, body: ResearchProjectBody) => apiFetch<AdminResearchProjectView>(projectPath(id), { method: 'PUT', body });
export const saveQuestionnaireDraft = (id: number, definition: QuestionnaireDefinition) =>
  apiFetch<AdminResearchProjectView>(`${projectPath(id)}/questionnaire/draft`, { method: 'PUT', body: { definition } });
export const publishQuestionnaire = (id: number) => apiFetch<AdminResearchProjectView>(`${projectPath(id)}/questionnaire/publish`, { method: 'POST' });
export const closeResearchProject = (id: number) => apiFetch<AdminResearchProjectView>(`${projectPath(id)}/close`, { method: 'POST' });

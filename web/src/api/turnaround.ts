/**
 * Turnaround (issue 30, part 4; docs/turnaround.md): the lab's dashboard, a clinic's own figures,
 * the CSV of each table, and the admin's targets per test.
 */
import type {
  ClinicTurnaroundTable, ClinicTurnaroundView, LabTurnaroundTable, LabTurnaroundView, TurnaroundTargetBody, TurnaroundTargetView,
} from '@platform/domain';
import { API_PREFIX, apiFetch, queryString } from './fetcher';
import { useApiQuery, useRefreshApi } from './query';

export type { ClinicTurnaroundView, LabTurnaroundView, TurnaroundTargetView };

/** The range asked (empty: the server's default, the last 12 weeks). */
export interface TurnaroundRange {
  from: string;
  to: string;
}

const LAB_PATH = '/lab-toolbox/turnaround';
const clinicPath = (accountId: number) => `/provider-clinic/${accountId}/turnaround`;
const rangeQuery = (range: TurnaroundRange, more: Record<string, string> = {}) => {
  const q = queryString({ ...more, from: range.from, to: range.to });
  return q ? `?${q}` : '';
};

export const useLabTurnaround = (range: TurnaroundRange) =>
  useApiQuery<LabTurnaroundView>(`${LAB_PATH}${rangeQuery(range)}`, { errorHeading: 'Error retrieving turnaround' });

export const useClinicTurnaround = (accountId: number, range: TurnaroundRange) =>
  useApiQuery<ClinicTurnaroundView>(`${clinicPath(accountId)}${rangeQuery(range)}`, { errorHeading: 'Error retrieving turnaround' });

/** Where a table's CSV downloads from (a plain link: the session cookie goes with it). */
export const labTurnaroundCsvHref = (table: LabTurnaroundTable, range: TurnaroundRange) => `${API_PREFIX}${LAB_PATH}/export.csv${rangeQuery(range, { table })}`;
export const clinicTurnaroundCsvHref = (accountId: number, table: ClinicTurnaroundTable, range: TurnaroundRange) =>
  `${API_PREFIX}${clinicPath(accountId)}/export.csv${rangeQuery(range, { table })}`;

const TARGETS_PATH = '/admin/turnaround/targets';
export const useTurnaroundTargets = () => useApiQuery<TurnaroundTargetView[]>(TARGETS_PATH, { errorHeading: 'Error retrieving the turnaround targets' });
export const useRefreshTurnaroundTargets = () => useRefreshApi(TARGETS_PATH);
export const saveTurnaroundTarget = (body: TurnaroundTargetBody) => apiFetch<TurnaroundTargetView>(TARGETS_PATH, { method: 'PUT', body });

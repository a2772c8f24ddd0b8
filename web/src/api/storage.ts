/**
 * Storage plates (/api/lab-toolbox/storage/… and import-samples-storage-plates): the plate list,
 * a plate's map, where a sample is, and the commands (new plate, scan into a well, take out,
 * discard, check or commit a plate file). Values are sent exactly as typed or scanned: the API
 * says what is wrong with spaces around them.
 */
import useSWR from 'swr';
import type {
  StorageDiscarded, StorageImportCheck, StorageImportCommitted, StorageImportMode, StoragePlacement, StoragePlateSummary,
  StoragePlateView, StorageSampleLocation, StorageTakeOut,
} from '@platform/domain';
import { ApiError, apiFetch, queryString } from './fetcher';
import { useApiPage, useApiQuery, useRefreshApi, withErrorHeading } from './query';

const BASE = '/lab-toolbox/storage';
const path = (p: string) => `${BASE}/${p}`;

export type {
  StorageDiscarded, StorageImportCheck, StorageImportCommitted, StoragePlacement, StoragePlateSummary, StoragePlateView, StorageSampleLocation, StorageTakeOut,
};

/** After a command: every cached storage read is stale. */
export const useRefreshStorage = () => useRefreshApi(BASE);

export const useStoragePlates = (params: { page: number; pageSize: number; name?: string }) =>
  useApiPage<StoragePlateSummary>(path(`plates?${queryString(params)}`), { errorHeading: 'Error retrieving storage plates' });

export const useStoragePlate = (plateId: number | null) =>
  useApiQuery<StoragePlateView>(plateId ? path(`plates/${plateId}`) : null, { errorHeading: 'Error retrieving the storage plate' });

/** Where a sample is; a sample id the API refuses or does not know is the page's to say (no error modal). */
export const useSampleLocation = (sampleId: string | null) =>
  useSWR<StorageSampleLocation, ApiError>(
    sampleId === null ? null : path(`find?${queryString({ sampleId })}`),
    (p: string) => apiFetch<StorageSampleLocation>(p),
    withErrorHeading({ errorHeading: 'Error finding the sample', quietStatuses: [400, 404] }),
  );

export const createStoragePlate = (name: string) => apiFetch<StoragePlateView>(path('plates'), { method: 'POST', body: { name } });

export const placeInWell = (plateId: number, well: string, sampleId: string) =>
  apiFetch<StoragePlacement>(path(`plates/${plateId}/wells`), { method: 'POST', body: { well, sampleId } });

export const takeOutOfWell = (plateId: number, well: string) =>
  apiFetch<StorageTakeOut>(path(`plates/${plateId}/wells/${encodeURIComponent(well)}/take-out`), { method: 'POST' });

export const discardSample = (sampleId: string) => apiFetch<StorageDiscarded>(path('discard'), { method: 'POST', body: { sampleId } });

/** A file's bytes, through FileReader (every browser has it; Blob.arrayBuffer is newer). */
function bytesOf(file: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsArrayBuffer(file);
  });
}

/** A file's bytes as base64, in chunks (a large file would overflow String.fromCharCode's arguments). */
async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await bytesOf(file));
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Checks (dry-run) or commits a plate file; a commit writes every row or nothing. */
export async function importStorageFile<M extends StorageImportMode>(file: File, mode: M): Promise<M extends 'dry-run' ? StorageImportCheck : StorageImportCommitted> {
  const content = await base64Of(file);
  return apiFetch(`/lab-toolbox/import-samples-storage-plates`, { method: 'POST', body: { fileName: file.name, content, mode } });
}

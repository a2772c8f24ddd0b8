/** The clinic's result lists (SPEC §3 result list categories): which samples each holds and how they sort. */
import { SampleStatus } from '../samples/statuses';
import { valuesOf } from '../shared/values';

export const ResultListCategory = {
  Completed: 'COMPLETED',
  Pending: 'PENDING',
  PatientOrdered: 'PATIENT_ORDERED',
  PendingShipmentFromProvider: 'PENDING_SHIPMENT_FROM_PROVIDER',
} as const;
export type ResultListCategory = (typeof ResultListCategory)[keyof typeof ResultListCategory];
export const RESULT_LIST_CATEGORIES = valuesOf(ResultListCategory);

/**
 * Which samples each list holds (status at the time of the query; a sample In Storage counts by
 * the status it had before storage):
 * - PENDING: ordered and not finished: Order Placed .. In Testing.
 * - COMPLETED: finished: Resulted, Completed, Discarded, and Rejected (a rejected sample is
 *   finished too; its row shows the rejection reason and has no report).
 * - PATIENT_ORDERED: every sample whose order the patient placed (origin Patient Ordered), any status.
 * - PENDING_SHIPMENT_FROM_PROVIDER: kits still at the clinic: Order Placed and Pending Shipment.
 */
export const RESULT_LIST_STATUSES: Record<Exclude<ResultListCategory, 'PATIENT_ORDERED'>, readonly SampleStatus[]> = {
  PENDING: [SampleStatus.OrderPlaced, SampleStatus.PendingShipment, SampleStatus.InTransit, SampleStatus.InQueue, SampleStatus.InTesting],
  COMPLETED: [SampleStatus.Resulted, SampleStatus.Completed, SampleStatus.Discarded, SampleStatus.Rejected],
  PENDING_SHIPMENT_FROM_PROVIDER: [SampleStatus.OrderPlaced, SampleStatus.PendingShipment],
};

/** The fields a result list can be sorted by. */
export const RESULT_LIST_SORT_FIELDS = ['barcode', 'patientName', 'status', 'orderedAt', 'resultedAt'] as const;
export type ResultListSortField = (typeof RESULT_LIST_SORT_FIELDS)[number];

/** The shortest search of the clinic's lists (one character matches too much to be useful). */
export const RESULT_SEARCH_MIN_LENGTH = 2;
/** What a search of the clinic's lists may hold: the letters of names, the digits and _ of barcodes and order ids, and . , ' - @ / */
export const RESULT_SEARCH_PATTERN = /^[\p{L}\p{M}\p{N} '.,_@\/-]+$/u;

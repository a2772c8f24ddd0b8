/** A sample's status (SPEC §3), the spec's rejection reasons, and the statuses intake reads. */
import { valuesOf } from '../shared/values';

export const SampleStatus = {
  OrderPlaced: 'Order Placed',
  PendingShipment: 'Pending Shipment',
  InTransit: 'In Transit',
  InQueue: 'In Queue',
  InTesting: 'In Testing',
  Resulted: 'Resulted',
  Rejected: 'Rejected',
  InStorage: 'In Storage',
  Completed: 'Completed',
  Discarded: 'Discarded',
} as const;
export type SampleStatus = (typeof SampleStatus)[keyof typeof SampleStatus];
export const SAMPLE_STATUSES = valuesOf(SampleStatus);

export const REJECTION_PREFIX = 'Rejected - ';
export const RejectionReason = {
  QuantityNotSufficient: 'Rejected - quantity not sufficient',
  IdentificationMismatch: 'Rejected - identification mismatch',
  SpecimenExpired: 'Rejected - specimen expired',
  SampleNotReceived: 'Rejected - sample not received',
} as const;
export type RejectionReason = (typeof RejectionReason)[keyof typeof RejectionReason];
export const REJECTION_REASONS = valuesOf(RejectionReason);

/** The statuses from which the lab receives a kit (Pending Shipment: a kit that was never tracked). */
export const RECEIVABLE_STATUSES: readonly SampleStatus[] = [SampleStatus.InTransit, SampleStatus.PendingShipment];
/** The statuses of a kit the lab already has. */
export const RECEIVED_STATUSES: readonly SampleStatus[] = [
  SampleStatus.InQueue, SampleStatus.InTesting, SampleStatus.Resulted, SampleStatus.Completed, SampleStatus.InStorage, SampleStatus.Discarded,
];

/** Cancelling a clinic's order (docs/clinical-orders.md): which orders the clinic may cancel, and when. */
import { NOT_RECEIVED_STATUSES } from '../samples/lifecycle';
import type { SampleStatus } from '../samples/statuses';
import * as s from '../shared/shapes';
import { Portal, TestOrigin } from './orders';

/**
 * The clinic cancels its own orders (placed in the Clinical Portal; a patient's own order has its
 * cancel with refunds, docs/patient-ordering-api.md) until the lab receives the sample: while the
 * sample is Order Placed, Pending Shipment or In Transit. The sample is then Discarded with the
 * reason, and intake refuses it if it still arrives.
 */
export function clinicOrderCancellable(order: { origin: string; portal: string; cancelledAt: Date | string | null }, sample: { status: string }): boolean {
  return order.origin === TestOrigin.ProviderOrdered && order.portal === Portal.Clinical && !order.cancelledAt
    && NOT_RECEIVED_STATUSES.includes(sample.status as SampleStatus);
}

export const ORDER_RECEIVED_MESSAGE = 'The lab has already received this sample: the order can no longer be cancelled. Call the lab if it must not be tested.';
export const ORDER_ALREADY_CANCELLED_MESSAGE = 'This order is already cancelled';

/** The reason on the sample's timeline when its order is cancelled. */
export const orderCancelledReason = (reason: string) => `Order cancelled: ${reason}`;

/** POST samples/{sampleId}/cancel-order: the order cancelled and its sample's status now. */
export const CancelledClinicOrder = s.object({ sampleId: s.integer, orderNumber: s.string, status: s.string, cancelledAt: s.string, cancellationReason: s.string });
export type CancelledClinicOrder = s.Infer<typeof CancelledClinicOrder>;

import type { ReactNode } from 'react';
import { Alert, Anchor, Card, Group, Stack, Text, Timeline } from '@mantine/core';
import { SampleStatus as Status, trackingWords, TrackingStatus } from '@platform/domain';
import { REQUISITION_AWAITS_SIGN_OFF_MESSAGE, SampleStatus, workStatusOf } from '@platform/domain';
import type { PatientSample } from '../api/clinic';
import { ReportButton } from './ReportButton';
import { RequisitionButton } from './RequisitionButton';
import { StatusBadge } from './StatusBadge';
import { formatDate, formatDateTime } from '../format';

/** One sample of a patient or research participant: tests, status, documents, timeline, and the page's tools for it. */
export function SampleCard({ sample: s, children }: { sample: PatientSample; children?: ReactNode }) {
  // A stored sample counts by the status its work left it in: its released report stays reachable.
  const work = workStatusOf({ status: s.status as SampleStatus, statusBeforeStorage: s.statusBeforeStorage as SampleStatus | null });
  const finished = work === SampleStatus.Resulted || work === SampleStatus.Completed;
  return (
    <Card withBorder padding="lg" component="article" aria-label={`Sample ${s.barcode}`}>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={2}>
            <Text ff="monospace" fw={700} fz="lg">
              {s.barcode}
            </Text>
            <Text fz="sm" c="dimmed">
              {s.tests.map((t) => t.name).join(', ')} · {s.sampleType ?? 'sample type not given'} · order {s.orderNumber} of {formatDate(s.orderedAt)}
            </Text>
            <Text fz="sm" c="dimmed">
              {s.physician ? `Ordering physician: ${s.physician.name}${s.physician.npi ? ` (NPI ${s.physician.npi})` : ''}` : 'No ordering physician'} · {s.origin}
            </Text>
          </Stack>
          <StatusBadge status={s.status} statusBeforeStorage={s.statusBeforeStorage} />
        </Group>
        {s.rejectionReason && (
          <Alert color="red" variant="light" title="Sample rejected">
            {s.rejectionReason}
          </Alert>
        )}
        <Group gap="sm" wrap="wrap">
          {(s.documents.requisitionForm || s.status === SampleStatus.OrderPlaced) && (
            <RequisitionButton barcode={s.barcode} variant="light" size="sm" unavailableReason={s.requisitionAwaitsSignOff ? REQUISITION_AWAITS_SIGN_OFF_MESSAGE : null} />
          )}
          {finished && s.documents.labReport && (
            <ReportButton sampleId={s.id} barcode={s.barcode} label="Download report" variant="light" size="sm" />
          )}
        </Group>
        {children}
        <div>
          <Text fw={600} mb="xs">
            Timeline
          </Text>
          <Timeline active={s.timeline.length - (s.shipment?.trackingNumber ? 0 : 1)} bulletSize={14} lineWidth={2}>
            {s.timeline.flatMap((e, i) => [
              <Timeline.Item key={e.id} title={e.to}>
                <Text fz="sm" c="dimmed">
                  {formatDateTime(e.at)} · {e.actor.name}
                </Text>
                {e.reason && <Text fz="sm">{e.reason}</Text>}
              </Timeline.Item>,
              ...(i === parcelStepAfter(s) ? [<ParcelStep key="parcel" shipment={s.shipment!} />] : []),
            ])}
          </Timeline>
        </div>
      </Stack>
    </Card>
  );
}

/**
 * Where the kit's parcel step goes on the timeline: after the kit left (In Transit to the lab, or
 * Pending Shipment for a kit sent to the patient), else last; -1 when no label was bought.
 */
function parcelStepAfter(s: PatientSample): number {
  if (!s.shipment?.trackingNumber) return -1;
  const left = s.shipment.toPatient ? Status.PendingShipment : Status.InTransit;
  const i = s.timeline.findLastIndex((e) => e.to === left);
  return i >= 0 ? i : s.timeline.length - 1;
}

/** The carrier's word on the kit's parcel: where it is (delivered, and when), the carrier, the tracking link. */
function ParcelStep({ shipment: t }: { shipment: NonNullable<PatientSample['shipment']> }) {
  const status = t.trackingStatus ?? TrackingStatus.NotYetInSystem;
  return (
    <Timeline.Item title={trackingWords(status, t.toPatient)}>
      <Text fz="sm" c="dimmed">
        {t.deliveredAt ? `${formatDateTime(t.deliveredAt)} · ` : ''}
        {t.carrier ?? 'Carrier'} · tracking{' '}
        {t.trackingUrl ? (
          <Anchor href={t.trackingUrl} target="_blank" rel="noopener noreferrer" underline="always" aria-label={`Track parcel ${t.trackingNumber} on the carrier's site (opens a new tab)`}>
            {t.trackingNumber}
          </Anchor>
        ) : (
          t.trackingNumber
        )}
      </Text>
    </Timeline.Item>
  );
}

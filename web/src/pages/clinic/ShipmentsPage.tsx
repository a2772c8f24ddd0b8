import { useState } from 'react';
import {
  Alert, Anchor, Badge, Button, Card, Center, Checkbox, Group, Loader, Stack, Table, Text, Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router-dom';
import { trackingWords } from '@platform/domain';
import { DEFAULT_PAGE_SIZE, formatCalendarDate, listName, SHIPMENT_MAX_SAMPLES } from '@platform/domain';
import { createShipment, useRefreshClinic, useUnshippedSamples, type SampleRow, type ShipmentView } from '../../api/clinic';
import { useKitShipments } from '../../api/shipping';
import { CarrierLabelTools } from './CarrierLabelTools';
import { ApiError } from '../../api/fetcher';
import { FormError } from '../../components/FormError';
import { useFormSubmit } from '../../forms/use-form-submit';
import { reportError } from '../../shell/report-error';
import { useViewport } from '../../layouts/use-viewport';
import { useFocusBack } from '../../shell/focus-back';
import { showSuccessToast } from '../../shell/success-toast';
import { ClinicPageFrame } from './ClinicPageFrame';
import { formatCents, formatDate, formatDateTime } from '../../format';
import { Pager } from '../../components/Pager';
import { PrintLabelMenu } from '../../components/labels/PrintLabelMenu';
import { shipmentLabelPath } from '../../api/labels';
import { patientPath } from './ResultList';
import { StatusBadge } from '../../components/StatusBadge';

/**
 * /provider-clinic/{accountId}/shipments: the kits still at the clinic (pick them, create a
 * shipment, buy its carrier label from the shipping service) and the account's shipments with
 * their status and the carrier's tracking, read again while a parcel is on its way.
 */
export function ShipmentsPage() {
  return (
    <ClinicPageFrame title="Shipments">
      {(account) => (
        <Stack gap="xl">
          <UnshippedSamples accountId={account.id} />
          <ShipmentList accountId={account.id} />
        </Stack>
      )}
    </ClinicPageFrame>
  );
}

/** A refusal the page explains (kits already shipped, not found, too many). */
const isShipmentRefusal = (e: unknown) => e instanceof ApiError && [400, 404, 409].includes(e.status);

function UnshippedSamples({ accountId }: { accountId: number }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  // The kits chosen (sample id → barcode), across pages.
  const form = useForm<{ selected: Record<number, string> }>({ initialValues: { selected: {} } });
  const selected = new Map(Object.entries(form.getValues().selected).map(([id, barcode]) => [Number(id), barcode]));
  const { data, error, isLoading } = useUnshippedSamples(accountId, { page, pageSize });
  const refresh = useRefreshClinic(accountId);
  // Dismissing the refusal takes its close button away: back to Create shipment, or the page's heading
  // when that is disabled (the kits refused were shipped meanwhile, the list read again).
  const focusBack = useFocusBack();
  const phone = useViewport() === 'phone';
  const rows = data?.rows ?? [];
  const total = data?.total ?? 0;

  const toggle = (row: SampleRow, on: boolean) =>
    form.setFieldValue('selected', (prev) => {
      const next = { ...prev };
      if (on) next[row.sampleId] = row.barcode;
      else delete next[row.sampleId];
      return next;
    });
  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.sampleId));
  const someOnPage = rows.some((r) => selected.has(r.sampleId));
  const toggleAll = (on: boolean) =>
    form.setFieldValue('selected', (prev) => {
      const next = { ...prev };
      for (const r of rows) {
        if (on) next[r.sampleId] = r.barcode;
        else delete next[r.sampleId];
      }
      return next;
    });

  const sending = useFormSubmit(form, (values) => createShipment(accountId, Object.keys(values.selected).map(Number)), {
    onSuccess: async (shipment) => {
      showSuccessToast(`Shipment ${shipment.externalOrderId} created with ${shipment.samples.length} kit${shipment.samples.length === 1 ? '' : 's'}`);
      form.setFieldValue('selected', {});
      setPage(1);
      await refresh();
    },
    onError: (e) => {
      if (isShipmentRefusal(e)) void refresh();
      else reportError(e, 'Error submitting form');
    },
  });

  return (
    <Stack gap="sm" component="section" aria-labelledby="unshipped-title">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="xs">
          <Title order={2} fz="lg" id="unshipped-title">
            Kits to ship
          </Title>
          {data && (
            <Badge variant="light" aria-label={`${total} unshipped samples`}>
              {total}
            </Badge>
          )}
        </Group>
        <Button onClick={(e) => { focusBack.remember(e.currentTarget); sending.submit(); }} loading={sending.submitting} disabled={selected.size === 0 || selected.size > SHIPMENT_MAX_SAMPLES}>
          {selected.size ? `Create shipment (${selected.size})` : 'Create shipment'}
        </Button>
      </Group>
      <Text fz="sm" c="dimmed">
        Samples ordered and still at the clinic. Choose the kits going in one box; the shipping service collects the shipment.
      </Text>
      <FormError title="The shipment was not created" error={isShipmentRefusal(sending.error) ? (sending.error as ApiError).serverMessage : undefined} onClose={focusBack.after(sending.reset)} />
      {isLoading && !data ? (
        <Center py="lg" role="status" aria-label="Loading unshipped samples">
          <Loader />
        </Center>
      ) : error && !data ? (
        <Alert color="red" variant="light" title="The unshipped samples could not be loaded">
          {error.message}
        </Alert>
      ) : rows.length === 0 ? (
        <Card withBorder padding="lg">
          <Text c="dimmed">
            No kits waiting to be shipped.{' '}
            {/* Underlined: inside dimmed text its colour alone does not set it apart (WCAG 1.4.1). */}
            <Anchor component={Link} to={`/provider-clinic/${accountId}/order`} underline="always">
              Order a test
            </Anchor>
          </Text>
        </Card>
      ) : phone ? (
        <Stack gap="xs">
          <Checkbox label="Select every kit on this page" checked={allOnPage} indeterminate={someOnPage && !allOnPage} onChange={(e) => toggleAll(e.currentTarget.checked)} />
          {rows.map((r) => (
            <Card key={r.sampleId} withBorder padding="sm">
              <Checkbox
                checked={selected.has(r.sampleId)}
                onChange={(e) => toggle(r, e.currentTarget.checked)}
                label={
                  <Stack gap={2}>
                    <Text ff="monospace" fw={600}>
                      {r.barcode}
                    </Text>
                    <Text fz="sm">
                      {listName(r.patient)} · {r.tests.join(', ')}
                    </Text>
                    <Text fz="xs" c="dimmed">
                      Ordered {formatDate(r.orderedAt)} · {r.status}
                    </Text>
                  </Stack>
                }
              />
            </Card>
          ))}
        </Stack>
      ) : (
        <Card withBorder padding={0}>
          <Table.ScrollContainer minWidth={760}>
            <Table highlightOnHover verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>
                    <Checkbox aria-label="Select every kit on this page" checked={allOnPage} indeterminate={someOnPage && !allOnPage} onChange={(e) => toggleAll(e.currentTarget.checked)} />
                  </Table.Th>
                  <Table.Th>Barcode</Table.Th>
                  <Table.Th>Patient</Table.Th>
                  <Table.Th>Date of birth</Table.Th>
                  <Table.Th>Test</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Ordered</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.sampleId} bg={selected.has(r.sampleId) ? 'var(--mantine-color-clinical-0)' : undefined}>
                    <Table.Td>
                      <Checkbox aria-label={`Ship kit ${r.barcode}`} checked={selected.has(r.sampleId)} onChange={(e) => toggle(r, e.currentTarget.checked)} />
                    </Table.Td>
                    <Table.Td ff="monospace">{r.barcode}</Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={patientPath(accountId, r.patient.id)}>
                        {listName(r.patient)}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{formatCalendarDate(r.patient.dateOfBirth)}</Table.Td>
                    <Table.Td>{r.tests.join(', ')}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={r.status} size="sm" />
                    </Table.Td>
                    <Table.Td>{formatDate(r.orderedAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      {rows.length > 0 && (
        <Pager page={page} pageSize={pageSize} total={total} onPage={setPage} onPageSize={(s) => { setPageSize(s); setPage(1); }} noun="kits" />
      )}
      {selected.size > 0 && (
        <Text fz="sm" aria-live="polite">
          Selected: {[...selected.values()].join(', ')}
        </Text>
      )}
    </Stack>
  );
}

function ShipmentList({ accountId }: { accountId: number }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const { data, error, isLoading } = useKitShipments(accountId, { page, pageSize });
  const rows = data?.rows ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby="shipments-title">
      <Title order={2} fz="lg" id="shipments-title">
        Shipments
      </Title>
      {isLoading && !data ? (
        <Center py="lg" role="status" aria-label="Loading shipments">
          <Loader />
        </Center>
      ) : error && !data ? (
        <Alert color="red" variant="light" title="The shipments could not be loaded">
          {error.message}
        </Alert>
      ) : rows.length === 0 ? (
        <Card withBorder padding="lg">
          <Text c="dimmed">No shipments yet.</Text>
        </Card>
      ) : (
        <Stack gap="xs">
          {rows.map((s) => (
            <ShipmentCard key={s.id} shipment={s} accountId={accountId} />
          ))}
          <Pager page={page} pageSize={pageSize} total={data?.total ?? 0} onPage={setPage} onPageSize={(n) => { setPageSize(n); setPage(1); }} noun="shipments" />
        </Stack>
      )}
    </Stack>
  );
}

function ShipmentCard({ shipment: s, accountId }: { shipment: ShipmentView; accountId: number }) {
  return (
    <Card withBorder padding="md" component="article" aria-label={`Shipment ${s.externalOrderId ?? s.id}`}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <Text fw={600} ff="monospace">
            {s.externalOrderId ?? `#${s.id}`}
          </Text>
          <Group gap="sm">
            <StatusBadge status={s.status} size="sm" />
            <CarrierLabelTools accountId={accountId} shipment={s} />
            <PrintLabelMenu pathFor={(output) => shipmentLabelPath(accountId, s.id, output)} fileName={`labels-${s.externalOrderId ?? s.id}`} what={`shipment ${s.externalOrderId ?? s.id}`} />
          </Group>
        </Group>
        <Text fz="sm" c="dimmed">
          Created {formatDateTime(s.createdAt)}
          {s.createdBy ? ` by ${s.createdBy}` : ''} · {s.samples.length} kit{s.samples.length === 1 ? '' : 's'}
          {s.documents ? `, ${s.documents} requisition form${s.documents === 1 ? '' : 's'}` : ''}
          {s.rateCents !== null ? ` · shipping ${formatCents(s.rateCents)}` : ''}
        </Text>
        <ShipmentTrackingView shipment={s} />
        <Group gap={6}>
          {s.samples.map((sample) => (
            <Badge key={sample.id} variant="outline" color="gray" radius="sm" style={{ fontFamily: 'monospace' }} title={sample.status}>
              {sample.barcode} · {sample.status}
            </Badge>
          ))}
        </Group>
      </Stack>
    </Card>
  );
}

/** Where the shipment's parcel is: carrier, service, the tracking link, the last scan, and each scan. */
function ShipmentTrackingView({ shipment: s }: { shipment: ShipmentView }) {
  const t = s.tracking;
  if (!t.carrier && !t.trackingNumber && !s.shippedAt) return null;
  return (
    <Stack gap={4}>
      <Text fz="sm">
        {s.shippedAt ? `Shipped ${formatDate(s.shippedAt)}` : 'Label bought'}
        {t.carrier ? ` with ${t.carrier}${s.service ? ` ${s.service}` : ''}` : ''}
        {t.trackingNumber && (
          <>
            {' · tracking '}
            {t.trackingUrl ? (
              <Anchor href={t.trackingUrl} target="_blank" rel="noopener noreferrer" underline="always" aria-label={`Track parcel ${t.trackingNumber} on the carrier's site (opens a new tab)`}>
                {t.trackingNumber}
              </Anchor>
            ) : (
              t.trackingNumber
            )}
          </>
        )}
      </Text>
      {t.trackingStatus && (
        <Text fz="sm" fw={600} aria-live="polite">
          {trackingWords(t.trackingStatus, t.toPatient)}
          {t.deliveredAt ? ` ${formatDateTime(t.deliveredAt)}` : ''}
        </Text>
      )}
      {s.trackingEvents.length > 0 && (
        <Stack gap={0} component="ol" aria-label={`Carrier scans of shipment ${s.externalOrderId ?? s.id}`} style={{ margin: 0, paddingLeft: 18 }}>
          {s.trackingEvents.map((e) => (
            <Text key={`${e.at}-${e.statusCode}`} component="li" fz="xs" c="dimmed">
              {formatDateTime(e.at)} · {trackingWords(e.statusCode, t.toPatient)}
              {e.description ? ` · ${e.description}` : ''}
              {e.location ? ` · ${e.location}` : ''}
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/**
 * The patient orders naming this clinic that are not paid yet (Awaiting Payment or Payment
 * Failed): no sample and no kit yet, so the Patient-ordered list (samples) does not hold them.
 * Shown under that list on the Pending page's Patient-ordered view; a physician or the account's
 * super admin cancels one from here (the same dialog as a paid order's: a reason, the patient is
 * emailed, a started card payment is cancelled at Stripe so it can no longer be paid).
 */
import { useEffect, useState } from 'react';
import { Anchor, Badge, Button, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import {
  formatCalendarDate, fullName, listName, PATIENT_PRODUCT_NAMES, UNPAID_ORDER_EXPIRY_DAYS, type AccountRole, type UnpaidOrderSortField,
} from '@platform/domain';
import { UNPAID_ORDERS_ERROR, useUnpaidPatientOrders, type UnpaidPatientOrderRow } from '../../api/patient-portal';
import { PagedTable, usePaging } from '../../components/PagedTable';
import { formatCents, formatDate } from '../../format';
import { statusColor } from '../../status-colors';
import { CancelDialog, mayCancelPatientOrders } from './PatientOrderActions';
import { patientPath } from './ResultList';

const HEADING_ID = 'unpaid-patient-orders';

/** How the patient means to pay, as far as they got. */
function paymentOf(row: UnpaidPatientOrderRow): string {
  if (!row.paymentMethod) return 'No payment method chosen yet';
  const price = row.priceCents === null ? '' : ` · ${formatCents(row.priceCents)}`;
  return `${row.paymentMethod}${price}${row.cardPaymentStarted ? ' · card payment started' : ''}`;
}

export function UnpaidPatientOrders({ accountId, role }: { accountId: number; role: AccountRole | null }) {
  const paging = usePaging<UnpaidOrderSortField>({ sort: 'orderedAt', order: 'desc' });
  const { page, pageSize, sort, setPage } = paging;
  const [cancelling, setCancelling] = useState<UnpaidPatientOrderRow | null>(null);
  const list = useUnpaidPatientOrders(accountId, { page, pageSize, sort: sort.sort, order: sort.order });
  const mayCancel = mayCancelPatientOrders(role);
  // A page left empty (its last order cancelled) goes back to the last page that has orders.
  const lastPage = list.data ? Math.max(1, Math.ceil(list.data.total / pageSize)) : page;
  useEffect(() => {
    if (page > lastPage) setPage(lastPage);
  }, [page, lastPage, setPage]);

  return (
    <Stack gap="sm" component="section" aria-labelledby={HEADING_ID}>
      <Title order={2} fz="lg" id={HEADING_ID}>
        Awaiting payment
      </Title>
      <Text fz="sm" c="dimmed">
        Orders patients placed with this clinic as their treating provider and have not paid yet. No kit is sent before payment; once paid, an
        order moves to the list above, where a physician signs it off. An order not paid within {UNPAID_ORDER_EXPIRY_DAYS} days of being placed
        closes by itself (nothing is charged; the patient is emailed).
      </Text>
      <PagedTable
        list={list}
        paging={paging}
        label="Orders awaiting payment"
        loadingLabel="Loading the orders awaiting payment"
        errorTitle={UNPAID_ORDERS_ERROR}
        emptyText="No patient order is awaiting payment."
        noun="orders"
        minWidth={mayCancel ? 960 : 860}
        columns={[
          'Order',
          { label: 'Patient', sortBy: 'patientName' },
          'Date of birth',
          'Test',
          'Payment',
          { label: 'Ordered', sortBy: 'orderedAt' },
          ...(mayCancel ? ['Actions'] : []),
        ]}
      >
        {(row) => (
          <Table.Tr key={row.orderId}>
            <Table.Td ff="monospace">{row.orderNumber}</Table.Td>
            <Table.Td>
              <Anchor component={Link} to={patientPath(accountId, row.patient.id)}>
                {listName(row.patient)}
              </Anchor>
            </Table.Td>
            <Table.Td>{formatCalendarDate(row.patient.dateOfBirth)}</Table.Td>
            <Table.Td>
              <Text fz="sm">{PATIENT_PRODUCT_NAMES[row.product] ?? row.product}</Text>
              {row.tests.length > 0 && (
                <Text fz="xs" c="dimmed">
                  {row.tests.join(', ')}
                  {row.mirakind ? ' · MiraKind' : ''}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Stack gap={2} align="flex-start">
                <Badge color={statusColor(row.paymentStatus)} variant="filled" size="sm" radius="sm">
                  {row.paymentStatus}
                </Badge>
                <Text fz="xs">{paymentOf(row)}</Text>
              </Stack>
            </Table.Td>
            <Table.Td>{formatDate(row.orderedAt)}</Table.Td>
            {mayCancel && (
              <Table.Td>
                <Button size="compact-sm" variant="default" onClick={() => setCancelling(row)} aria-label={`Cancel order ${row.orderNumber}`}>
                  Cancel
                </Button>
              </Table.Td>
            )}
          </Table.Tr>
        )}
      </PagedTable>
      {cancelling && <CancelDialog accountId={accountId} order={cancelling} patientName={fullName(cancelling.patient)} onClose={() => setCancelling(null)} />}
    </Stack>
  );
}

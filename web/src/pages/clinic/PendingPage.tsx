import { useState } from 'react';
import { Anchor, Box, Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router-dom';
import { fullName, PATIENT_PRODUCT_NAMES, PATIENT_PRODUCTS, ResultListCategory } from '@platform/domain';
import { ClinicPageFrame } from './ClinicPageFrame';
import { mirakindOrderPath } from './MirakindOrderPage';
import { PatientOrderActions } from './PatientOrderActions';
import { patientInvitationsPath } from './PatientInvitationsPage';
import { ResultList } from './ResultList';
import { UnpaidPatientOrders } from './UnpaidPatientOrders';

type View = typeof ResultListCategory.Pending | typeof ResultListCategory.PatientOrdered;
const PATIENT_ORDERED_VIEW = 'patient-ordered';

/**
 * /provider-clinic/{accountId}/pending: samples ordered and not finished yet (Order Placed to In
 * Testing), newest first; and, as a second view, the tests the account's patients ordered themselves
 * (paid or covered, to sign off), then their orders not paid yet (UnpaidPatientOrders).
 */
export function PendingPage() {
  // ?view=patient-ordered opens the second view (the clinic home's link to orders awaiting sign-off).
  const [params] = useSearchParams();
  const [view, setView] = useState<View>(params.get('view') === PATIENT_ORDERED_VIEW ? ResultListCategory.PatientOrdered : ResultListCategory.Pending);
  return (
    <ClinicPageFrame
      title="Pending tests"
      actions={
        <Button component={Link} to="../order" relative="path">
          New order
        </Button>
      }
    >
      {(account) => (
        <Stack gap="md">
          <SegmentedControl
            aria-label="Which tests"
            value={view}
            onChange={(v) => setView(v as View)}
            data={[
              { value: ResultListCategory.Pending, label: 'Pending' },
              { value: ResultListCategory.PatientOrdered, label: 'Patient-ordered' },
            ]}
            w={{ base: '100%', xs: 'auto' }}
            style={{ alignSelf: 'flex-start' }}
          />
          {view === ResultListCategory.Pending ? (
            <ResultList
              key="pending"
              accountId={account.id}
              category={ResultListCategory.Pending}
              defaultSort={{ sort: 'orderedAt', order: 'desc' }}
              dateColumn={{ field: 'orderedAt', label: 'Ordered' }}
              emptyText="No pending tests. Orders you place appear here until their result is released."
            />
          ) : (
            <Stack gap="sm">
              <Group gap="md" wrap="wrap">
                <Anchor component={Link} to={patientInvitationsPath(account.id)}>
                  Invite a patient to order
                </Anchor>
                <Text c="dimmed" fz="sm">
                  Order for a patient through MiraKind:{' '}
                  {PATIENT_PRODUCTS.map((p, i) => (
                    <span key={p}>
                      {i > 0 && ' · '}
                      {/* Underlined: a link inside a sentence is told apart by more than its colour. */}
                      <Anchor component={Link} to={mirakindOrderPath(account.id, p)} fz="sm" underline="always">
                        {PATIENT_PRODUCT_NAMES[p]}
                      </Anchor>
                    </span>
                  ))}
                </Text>
              </Group>
              <ResultList
                key="patient-ordered"
                accountId={account.id}
                category={ResultListCategory.PatientOrdered}
                defaultSort={{ sort: 'orderedAt', order: 'desc' }}
                dateColumn={{ field: 'orderedAt', label: 'Ordered' }}
                actions={(r) =>
                  r.patientOrder && <PatientOrderActions accountId={account.id} role={account.role} order={r.patientOrder} patientName={fullName(r.patient)} />
                }
                emptyText="No patient order has been paid or covered yet. Orders awaiting payment are listed below."
              />
              <Box mt="lg">
                <UnpaidPatientOrders accountId={account.id} role={account.role} />
              </Box>
            </Stack>
          )}
        </Stack>
      )}
    </ClinicPageFrame>
  );
}

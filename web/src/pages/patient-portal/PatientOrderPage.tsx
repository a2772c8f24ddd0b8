import { useState } from 'react';
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { Link, Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { PATIENT_PRODUCT_NAMES, PatientOrderStage, type PatientOrderKey, type PatientProduct } from '@platform/domain';
import { ApiError } from '../../api/fetcher';
import { closeOpenOrder, openOrderOf, useInvitation, usePatientOrderSummary } from '../../api/patient-portal';
import { Notice } from '../../components/Notice';
import { PageLoader } from '../../components/PageLoader';
import { usePatientText } from '../../i18n/patient-language';
import { CancelledOrder } from '../../components/patient-order/CancelledOrder';
import { PatientOrderFlow } from '../../components/patient-order/PatientOrderFlow';
import { PatientPortalFrame } from './PatientPortalFrame';
import { patientOrderPath } from '../../portals';

/**
 * /patient-portal/order/{product}/new (no sign-in): the stepped order. `?invitation=<token>` (a
 * clinic's emailed invitation) fills in the clinic, the test, the email and the names; a used,
 * cancelled or expired invitation says so. An order this tab started and has not paid is offered
 * to continue; one the clinic has cancelled meanwhile is shown cancelled, with no way to pay it.
 */
export function PatientOrderPage({ product }: { product: PatientProduct }) {
  const [params] = useSearchParams();
  const invitationToken = params.get('invitation');
  const name = PATIENT_PRODUCT_NAMES[product];
  const { t } = usePatientText();
  return (
    <PatientPortalFrame kicker={t('order.kicker')} title={t('order.title', { product: name })}>
      {invitationToken ? <InvitedOrder product={product} token={invitationToken} /> : <OwnOrder product={product} />}
    </PatientPortalFrame>
  );
}

function InvitedOrder({ product, token }: { product: PatientProduct; token: string }) {
  const { data, error } = useInvitation(token);
  const { search } = useLocation();
  const { t } = usePatientText();
  if (error) {
    const plain = error instanceof ApiError && error.status > 0 && error.status < 500 && error.serverMessage ? error.serverMessage : error.message;
    return (
      <Stack gap="md">
        <Notice color="orange" title={t('order.invitationUnusable')}>
          {plain}
        </Notice>
        <Text>
          {t('order.withoutInvitationBefore')}
          <Anchor component={Link} to={patientOrderPath(product)}>
            {t('order.withoutInvitationLink', { product: PATIENT_PRODUCT_NAMES[product] })}
          </Anchor>
          {t('order.withoutInvitationAfter')}
        </Text>
      </Stack>
    );
  }
  if (!data) return <PageLoader label={t('order.loadingInvitation')} />;
  // The link names the test the clinic chose.
  if (data.product !== product) return <Navigate to={`${patientOrderPath(data.product)}${search}`} replace />;
  return (
    <Stack gap="lg">
      <Notice color="blue" title={t('order.invitedBy', { account: data.accountName })}>
        {t('order.invitedText')}
      </Notice>
      <PatientOrderFlow product={product} fixedAccount={null} mirakind={false} invitation={{ token, prefill: data }} resume={null} />
    </Stack>
  );
}

/**
 * A patient's own order. An order this tab started and has not paid is picked up where it waits
 * (a reload resumes it at the payment step); starting a new one instead cancels it with the new
 * order's creation (`replaces`), so abandoned attempts never pile up for the clinic.
 */
function OwnOrder({ product }: { product: PatientProduct }) {
  const [open] = useState(() => openOrderOf(product));
  const [choice, setChoice] = useState<'resume' | 'new'>(open ? 'resume' : 'new');
  const [replaces, setReplaces] = useState<PatientOrderKey | null>(null);
  const summary = usePatientOrderSummary(choice === 'resume' ? open : null);
  const unpaid = summary.data && summary.data.stage === PatientOrderStage.AwaitingPayment;
  const { t } = usePatientText();
  const startNew = () => {
    closeOpenOrder(product);
    setChoice('new');
  };

  if (choice === 'resume' && open && summary.isLoading) return <PageLoader label={t('order.loadingOrder')} />;
  if (choice === 'resume' && open && summary.data?.stage === PatientOrderStage.Cancelled) return <CancelledOrder summary={summary.data} onStartNew={startNew} />;
  if (choice === 'resume' && open && unpaid) {
    return (
      <Stack gap="md">
        <Notice color="blue" title={t('order.inProgress')}>
          {t('order.waitingPayment', { orderNumber: open.orderNumber })}{' '}
          <Button variant="subtle" size="compact-md" onClick={() => { setReplaces(open); startNew(); }}>
            {t('order.startNewInstead')}
          </Button>
        </Notice>
        <PatientOrderFlow key="resume" product={product} fixedAccount={null} mirakind={false} invitation={null} resume={{ key: open, summary: summary.data! }} replaces={null} />
      </Stack>
    );
  }
  return <PatientOrderFlow key="new" product={product} fixedAccount={null} mirakind={false} invitation={null} resume={null} replaces={replaces} />;
}

import { useEffect, useRef, useState } from 'react';
import { Stack, Stepper, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import type { EligibilityAnswers, InvitationPrefill, PatientOrderKey, PatientOrderSummary, PatientProduct } from '@platform/domain';
import { rememberOrder } from '../../api/patient-portal';
import { useViewport } from '../../layouts/use-viewport';
import { PageLoader } from '../PageLoader';
import { usePatientText } from '../../i18n/patient-language';
import { EligibilityStep } from './EligibilityStep';
import { useLaterSteps } from './lazy-steps';
import { completePath } from '../../portals';
import { EMPTY_PATIENT, type FixedAccount, type PatientValues } from './patient-values';

/** The steps, by their key under order.steps in the message catalogue. */
export const ORDER_STEPS = ['eligibility', 'details', 'referral', 'payment', 'card'] as const;
const PAYMENT_STEP = 3;
const CARD_STEP = 4;

export interface PatientOrderFlowProps {
  product: PatientProduct;
  /** The clinic's own account on its MiraKind order page; null lets the patient (or the invitation) name it. */
  fixedAccount: FixedAccount | null;
  mirakind: boolean;
  invitation: { token: string; prefill: InvitationPrefill } | null;
  /** An order this browser created and has not paid yet: the flow picks it up at the payment step. */
  resume: { key: PatientOrderKey; summary: PatientOrderSummary } | null;
  /** The unpaid order this new one replaces (cancelled when this one is created). */
  replaces?: PatientOrderKey | null;
}

/**
 * The stepped order, one column and large controls for a phone: eligibility (stops when not
 * eligible), the patient's details and treating provider (creates the order), how they heard,
 * payment and its summary, the card. The order token stays in this tab's sessionStorage.
 */
export function PatientOrderFlow({ product, fixedAccount, mirakind, invitation, resume, replaces = null }: PatientOrderFlowProps) {
  const phone = useViewport() === 'phone';
  const navigate = useNavigate();
  const { t } = usePatientText();
  const [active, setActive] = useState(resume ? PAYMENT_STEP : 0);
  // The later steps' code, asked for once the patient starts on the first step (lazy-steps.tsx).
  const [started, setStarted] = useState(false);
  const later = useLaterSteps(started || active > 0);
  const [answers, setAnswers] = useState<EligibilityAnswers | null>(null);
  const [patient, setPatient] = useState<PatientValues | null>(null);
  const [orderKey, setOrderKey] = useState<PatientOrderKey | null>(resume?.key ?? null);
  const [summary, setSummary] = useState<PatientOrderSummary | null>(resume?.summary ?? null);
  // The step's form goes away with the button pressed: the next step's title takes the focus (not on the first showing).
  const stepTitle = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(active);
  useEffect(() => {
    if (shownStep.current === active) return;
    shownStep.current = active;
    stepTitle.current?.focus();
  }, [active]);

  const prefill = invitation?.prefill;
  const account: FixedAccount | null = fixedAccount ?? (prefill ? { id: prefill.accountId, name: prefill.accountName } : null);
  const initialPatient: PatientValues = patient ?? {
    ...EMPTY_PATIENT,
    firstName: prefill?.firstName ?? '',
    lastName: prefill?.lastName ?? '',
    email: prefill?.email ?? '',
  };

  const content = (step: number) => {
    if (step !== active) return null;
    if (step === 0) {
      return (
        <EligibilityStep
          product={product}
          answers={answers}
          onEligible={(values) => {
            setAnswers(values);
            setActive(1);
          }}
        />
      );
    }
    if (!later) return <PageLoader />;
    const { CardPayment, DetailsStep, PaymentStep, ReferralStep } = later;
    switch (step) {
      case 1:
        return (
          <DetailsStep
            product={product}
            answers={answers!}
            patient={initialPatient}
            fixedAccount={account}
            invitationToken={invitation?.token ?? null}
            mirakind={mirakind}
            replaces={replaces}
            onCreated={(created, person) => {
              const key = { orderNumber: created.order.orderNumber, orderToken: created.orderToken };
              rememberOrder(key, product);
              setOrderKey(key);
              setSummary(created.order);
              setPatient(person);
              setActive(2);
            }}
          />
        );
      case 2:
        return (
          <ReferralStep
            orderKey={orderKey!}
            onDone={(next) => {
              setSummary(next);
              setActive(PAYMENT_STEP);
            }}
          />
        );
      case PAYMENT_STEP:
        return (
          <PaymentStep
            orderKey={orderKey!}
            summary={summary!}
            onSummary={setSummary}
            onCard={() => setActive(CARD_STEP)}
            onFinish={() => navigate(completePath(orderKey!.orderNumber))}
          />
        );
      default:
        return <CardPayment orderKey={orderKey!} />;
    }
  };

  return (
    <Stack gap="lg">
      <Stepper
        active={active}
        // Back to the answers only before the order exists (afterwards the order is what it is).
        onStepClick={(step) => {
          if (orderKey === null && step < active) setActive(step);
        }}
        allowNextStepsSelect={false}
        size={phone ? 'xs' : 'sm'}
        iconSize={phone ? 28 : undefined}
        aria-label={t('order.stepsLabel')}
        styles={phone ? { steps: { gap: 4 }, separator: { marginInline: 2 } } : undefined}
      >
        {ORDER_STEPS.map((step, i) => (
          <Stepper.Step
            key={step}
            label={phone ? undefined : t(`order.steps.${step}`)}
            aria-label={t('order.stepAria', { number: i + 1, label: t(`order.steps.${step}`) })}
            allowStepSelect={orderKey === null && i < active}
          />
        ))}
      </Stepper>
      <Stack gap={2}>
        <Text fz="sm" c="dimmed">
          {t('order.stepOf', { number: active + 1, count: ORDER_STEPS.length })}
        </Text>
        <Title order={2} fz={{ base: 22, xs: 24 }} ref={stepTitle} tabIndex={-1}>
          {t(`order.steps.${ORDER_STEPS[active]}`)}
        </Title>
      </Stack>
      <div onFocus={() => setStarted(true)} onPointerDown={() => setStarted(true)}>
        {content(active)}
      </div>
    </Stack>
  );
}

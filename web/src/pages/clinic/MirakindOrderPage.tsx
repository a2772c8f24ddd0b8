import { Stack } from '@mantine/core';
import { MIRAKIND_DONATION_SHARE, PATIENT_PRODUCT_NAMES, type PatientProduct } from '@platform/domain';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { Notice } from '../../components/Notice';
import { PatientOrderFlow } from '../../components/patient-order/PatientOrderFlow';
import { ClinicPageFrame } from './ClinicPageFrame';

export const mirakindOrderPath = (accountId: number, product: PatientProduct) => `/provider-clinic/${accountId}/${product}-through-mirakind`;

/**
 * /provider-clinic/{accountId}/{product}-through-mirakind: the clinic orders for a patient through
 * the MiraKind non-profit program. The Patient Portal's stepped order, the account fixed to this
 * clinic, with the tax-deductible donation shown on the summary. The order's steps are the
 * patient's: in the patient's language (the switch), which their emails then use.
 */
export function MirakindOrderPage({ product }: { product: PatientProduct }) {
  return (
    <ClinicPageFrame title={`Order ${PATIENT_PRODUCT_NAMES[product]} through MiraKind`} maxWidth={640}>
      {(account) => (
        <Stack gap="lg">
          <LanguageSwitch />
          <Notice color="blue">
            Ordering for a patient through MiraKind, our non-profit partner: {Math.round(MIRAKIND_DONATION_SHARE * 100)}% of the price is a tax-deductible donation. The kit
            ships to the patient, and a physician of {account.name} signs the order off before it ships.
          </Notice>
          <PatientOrderFlow product={product} fixedAccount={{ id: account.id, name: account.name }} mirakind invitation={null} resume={null} />
        </Stack>
      )}
    </ClinicPageFrame>
  );
}

import { AccountRole } from '@platform/domain';
import { Stack, Text } from '@mantine/core';
import { clinicAuditTrailApi } from '../../api/audit-trail';
import { AuditTrailView } from '../../components/audit-trail/AuditTrailView';
import { Notice } from '../../components/Notice';
import { ClinicPageFrame } from './ClinicPageFrame';

/**
 * /provider-clinic/{accountId}/audit-trail: the account's Super Admin reads and exports its
 * account's audit trail (its users, patients, samples and the account itself; the API keeps it to
 * them). Anyone else is told who can; the API refuses them too (403).
 */
export function ClinicAuditTrailPage() {
  return (
    <ClinicPageFrame title="Audit trail">
      {(account) =>
        account.role === AccountRole.SuperAdmin ? (
          <Stack gap="lg">
            <Text maw={760}>Who read or changed the data of {account.name}: its patients, samples, users and settings, newest first.</Text>
            <AuditTrailView base={clinicAuditTrailApi(account.id)} canVerify={false} />
          </Stack>
        ) : (
          <Notice color="blue" title="Only this account's super admins read its audit trail">
            Ask a super admin of {account.name}.
          </Notice>
        )
      }
    </ClinicPageFrame>
  );
}

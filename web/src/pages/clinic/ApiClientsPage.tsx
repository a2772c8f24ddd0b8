import { AccountRole } from '@platform/domain';
import { ApiClientsPanel } from '../../components/api-clients/ApiClientsPanel';
import { Notice } from '../../components/Notice';
import { ClinicPageFrame } from './ClinicPageFrame';

/**
 * /provider-clinic/{accountId}/api-clients: the account's Super Admin gives its EHR or practice
 * system credentials for the FHIR API and webhooks (docs/fhir.md). Anyone else is told who can;
 * the API refuses them too (403).
 */
export function ApiClientsPage() {
  return (
    <ClinicPageFrame title="API clients">
      {(account) =>
        account.role === AccountRole.SuperAdmin ? (
          <ApiClientsPanel owner={{ by: 'clinic', accountId: account.id }} accountName={account.name} />
        ) : (
          <Notice color="blue" title="Only this account's super admins manage its API clients">
            Ask a super admin of {account.name} to connect your EHR or practice system.
          </Notice>
        )
      }
    </ClinicPageFrame>
  );
}

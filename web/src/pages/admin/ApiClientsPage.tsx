import { useState } from 'react';
import { Stack } from '@mantine/core';
import { ApiClientsPanel } from '../../components/api-clients/ApiClientsPanel';
import { AccountSelect, type AccountOption } from './AccountSelect';
import { AdminPageFrame } from './AdminPageFrame';

/** /admin/provider/api-clients: the lab's admin manages any account's API clients (issue 27). */
export function ApiClientsPage() {
  const [account, setAccount] = useState<AccountOption | null>(null);
  return (
    <AdminPageFrame title="API clients">
      <Stack gap="lg">
        <AccountSelect label="Account" value={account} onChange={setAccount} w={420} />
        {account && <ApiClientsPanel key={account.id} owner={{ by: 'admin', accountId: account.id }} accountName={account.name} />}
      </Stack>
    </AdminPageFrame>
  );
}

/**
 * /admin/provider/audit-trail: the lab's admin reads every event of the audit trail, filters it,
 * exports it (CSV, PDF) and verifies its hash chain (issue 29).
 */
import { Stack, Text } from '@mantine/core';
import { ADMIN_AUDIT_TRAIL_API } from '../../api/audit-trail';
import { AuditTrailView } from '../../components/audit-trail/AuditTrailView';
import { AdminPageFrame } from './AdminPageFrame';

export function AuditTrailPage() {
  return (
    <AdminPageFrame title="Audit trail">
      <Stack gap="lg">
        <Text maw={760}>
          Every read and change of patient data and every sign-in, newest first. Rows are sealed into a hash chain seconds after they are written: a
          row changed or removed behind the platform&apos;s back is found by verifying the trail.
        </Text>
        <AuditTrailView base={ADMIN_AUDIT_TRAIL_API} canVerify />
      </Stack>
    </AdminPageFrame>
  );
}

import { Anchor, Card, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { AccountType } from '@platform/domain';
import { DocumentList } from '../../components/DocumentList';
import { PROVIDER_INFO_LINKS } from '../../portals';
import { ClinicPageFrame } from './ClinicPageFrame';

/**
 * /provider-clinic/{accountId}/resources: the documents of SPEC §2 for clinics, the study
 * documents when the account takes part in research (PROSTOX Research), and the information pages
 * for physicians. The data model holds no documents of an account's own beyond each sample's
 * requisition form and lab report, which are on the patient page and the lists.
 */
export function ResourcesPage() {
  return (
    <ClinicPageFrame title="Resources" maxWidth={960}>
      {(account) => (
        <Stack gap="lg">
          <DocumentList audience="clinic" title="Documents for clinics and patients" />
          {(account.researchAccess || account.type === AccountType.ProstoxResearchPartner) && (
            <DocumentList audience="research" title="Research study documents" />
          )}
          <Card withBorder padding="lg">
            <Title order={2} fz="h4" mb="sm">
              Information for physicians
            </Title>
            <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {PROVIDER_INFO_LINKS.map((l) => (
                <li key={l.to}>
                  <Anchor component={Link} to={l.to} fw={600}>
                    {l.label}
                  </Anchor>
                </li>
              ))}
            </Stack>
            <Text fz="sm" c="dimmed" mt="sm">
              Requisition forms and lab reports of your samples are on each patient&apos;s page and in the pending and completed lists.
            </Text>
          </Card>
        </Stack>
      )}
    </ClinicPageFrame>
  );
}

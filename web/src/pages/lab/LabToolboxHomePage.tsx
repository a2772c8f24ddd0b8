import { Stack } from '@mantine/core';
import { useMe } from '../../api/auth';
import { ClipboardIcon, DocumentIcon, FlaskIcon, KeyIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { ToolList, type ToolEntry } from '../../components/ToolList';
import { useStoredUser } from '../../session/stored-user';

/** The lab's tools; each is linked here when its page is built. */
export const LAB_TOOLS: readonly ToolEntry[] = [
  { title: 'Sample intake', description: 'Receive kits: scan barcodes, check them against orders, queue them for testing.', icon: ClipboardIcon },
  { title: 'PCR register', description: 'Register COVID-19 PCR samples on a run.', icon: FlaskIcon },
  { title: 'PCR resulting', description: 'Enter COVID-19 PCR results for registered samples.', icon: FlaskIcon },
  { title: 'Storage plate import', description: 'Import storage plate layouts.', icon: DocumentIcon },
  { title: 'DNA extraction import', description: 'Import DNA extraction results.', icon: DocumentIcon },
  { title: 'CFRT toxicity import', description: 'Import PROSTOX CFRT toxicity result files.', icon: DocumentIcon },
  { title: 'KRAS prostate immune import', description: 'Import KRAS and prostate immune result files.', icon: DocumentIcon },
  { title: 'Review and approve', description: 'Review imported results; approve to release or reject with a reason.', icon: KeyIcon },
];

/** /lab_toolbox: the Lab Toolbox home after sign-in. */
export function LabToolboxHomePage() {
  const { data: me } = useMe();
  const stored = useStoredUser();
  const firstName = me?.user.firstName ?? stored?.firstName ?? '';
  return (
    <Stack gap="lg" maw={1100}>
      <PageHeader title={firstName ? `Welcome, ${firstName}` : 'Welcome'} subtitle="Lab Toolbox" />
      <ToolList tools={LAB_TOOLS} label="Lab tools" />
    </Stack>
  );
}

import { Stack } from '@mantine/core';
import { useMe } from '../../api/auth';
import { ClipboardIcon, DocumentIcon, FlaskIcon, KeyIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { ToolList, type ToolEntry } from '../../components/ToolList';
import { useStoredUser } from '../../session/stored-user';
import { LAB_PATHS } from './paths';

/** The lab's tools, each a link to its page. */
export const LAB_TOOLS: readonly ToolEntry[] = [
  { title: 'Worklist', description: 'Samples In Queue and In Testing by test, oldest receipt first, with those past their turnaround target marked.', icon: ClipboardIcon, to: LAB_PATHS.worklist },
  { title: 'Sample intake', description: 'Receive kits: scan barcodes one after another, queue them for testing, or reject them with a reason.', icon: ClipboardIcon, to: LAB_PATHS.intake },
  { title: 'PCR register', description: 'Register lab-ordered COVID-19 samples and put samples and controls on a PCR plate.', icon: FlaskIcon, to: LAB_PATHS.pcrRegister },
  { title: 'PCR resulting', description: 'Enter the COVID-19 PCR results of a registered plate; failed controls block its release.', icon: FlaskIcon, to: LAB_PATHS.pcrResulting },
  { title: 'Storage plates', description: 'Place samples on 96-well storage plates by scanning or from a file, see each plate\'s map, find a sample, take it out or discard it.', icon: FlaskIcon, to: LAB_PATHS.storagePlates },
  { title: 'DNA extraction import', description: 'Import an extraction run (concentration, A260/280, volume, plate and well): check every row, flag what is out of range, then commit; re-extract or reject flagged samples.', icon: DocumentIcon, to: LAB_PATHS.dnaExtractionImport },
  { title: 'Toxicity risk import', description: 'Import toxicity risk levels (PROSTOX ultra and CFRT, PREVIOTOX and the research panels) from CSV or Excel: check every row, then commit.', icon: DocumentIcon, to: LAB_PATHS.toxicityImport },
  { title: 'KRAS prostate immune import', description: 'Import KRAS genotypes from CSV or Excel: check every row, then commit.', icon: DocumentIcon, to: LAB_PATHS.krasImport },
  { title: 'Turnaround', description: 'Receipt to result and release per test and week, samples past their target, throughput per day and rejections by reason; each table as CSV.', icon: ClipboardIcon, to: LAB_PATHS.turnaround },
  { title: 'Review and approve', description: 'Review entered and imported results; approve to release or reject with a reason; correct a released result.', icon: KeyIcon, to: LAB_PATHS.review },
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

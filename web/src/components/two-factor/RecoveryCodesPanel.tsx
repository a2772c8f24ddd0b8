import { Button, CopyButton, Group, List, Stack, Text } from '@mantine/core';

/** The ten recovery codes, shown once: copy them, download them, then say they are saved. */
export function RecoveryCodesPanel({ codes, onDone, doneLabel = 'I have saved them' }: { codes: string[]; onDone: () => void; doneLabel?: string }) {
  const text = codes.join('\n');
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack gap="sm" aria-labelledby="recovery-codes-heading">
      <Text component="h3" id="recovery-codes-heading" fw={700} fz="lg" m={0}>
        Your recovery codes
      </Text>
      <Text fz="sm">
        Each code signs you in once if you lose your phone or security key. Keep them somewhere safe: they are shown only now.
      </Text>
      <List aria-label="Recovery codes" listStyleType="none" spacing={2} ff="monospace" fz="md" data-testid="recovery-codes">
        {codes.map((code) => (
          <List.Item key={code}>{code}</List.Item>
        ))}
      </List>
      <Group>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" onClick={download}>
          Download
        </Button>
      </Group>
      <Group justify="flex-end">
        <Button onClick={onDone}>{doneLabel}</Button>
      </Group>
    </Stack>
  );
}

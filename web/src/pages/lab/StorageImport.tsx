import { useState } from 'react';
import { Badge, Button, FileInput, Group, List, Paper, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { formatCount, STORAGE_IMPORT_COLUMNS, STORAGE_IMPORT_MAX_BYTES, STORAGE_IMPORT_MAX_ROWS, type StorageImportCheck } from '@platform/domain';
import { ApiError } from '../../api/fetcher';
import { commandError } from '../../forms/server-errors';
import { importStorageFile, useRefreshStorage, type StorageImportCommitted } from '../../api/storage';
import { Notice } from '../../components/Notice';
import { useCommand } from '../../forms/use-form-submit';
import { AA_COLORS, statusColor } from '../../status-colors';

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

function CheckErrors({ check }: { check: StorageImportCheck }) {
  return (
    <ScrollArea.Autosize mah={360}>
      <Table striped withTableBorder aria-label="Errors">
        <Table.Thead>
          <Table.Tr><Table.Th>Row</Table.Th><Table.Th>Column</Table.Th><Table.Th>Value</Table.Th><Table.Th>Problem</Table.Th></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {check.errors.map((e, i) => (
            <Table.Tr key={i}>
              <Table.Td>{e.row}</Table.Td>
              <Table.Td>{e.column}</Table.Td>
              {/* The value as written: spaces around it shown as ␣ so a stray one can be seen. */}
              <Table.Td ff="monospace">{e.value.replace(/^ +| +$/g, (m) => '␣'.repeat(m.length))}</Table.Td>
              <Table.Td>{e.message}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}

function CheckRows({ check }: { check: StorageImportCheck }) {
  return (
    <ScrollArea.Autosize mah={360}>
      <Table striped withTableBorder aria-label="Rows">
        <Table.Thead>
          <Table.Tr><Table.Th>Row</Table.Th><Table.Th>Plate</Table.Th><Table.Th>Well</Table.Th><Table.Th>Sample id</Table.Th><Table.Th>Status now</Table.Th><Table.Th /></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {check.rows.map((r) => (
            <Table.Tr key={r.row}>
              <Table.Td>{r.row}</Table.Td>
              <Table.Td>{r.plate}</Table.Td>
              <Table.Td ff="monospace">{r.well}</Table.Td>
              <Table.Td ff="monospace">{r.sampleId}</Table.Td>
              <Table.Td>{r.status ? <Badge color={statusColor(r.status)}>{r.status}</Badge> : r.kind && r.kind !== 'sample' ? r.kind : ''}</Table.Td>
              <Table.Td>{r.ok ? <Badge color={AA_COLORS.green}>OK</Badge> : <Badge color={AA_COLORS.red}>Error</Badge>}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}

function CheckView({ check }: { check: StorageImportCheck }) {
  const clean = check.errorCount === 0;
  const plates = check.plates.map((p) => `${p.name}${p.exists ? '' : ' (new plate)'}: ${plural(p.placements, 'well')}`).join(' · ');
  return (
    <Stack gap="sm">
      <Notice color={clean ? 'green' : 'red'} title={clean ? 'Every row can be placed' : `${plural(check.errorCount, 'error')} found`}>
        {check.fileName}: {plural(check.rowCount, 'row')}. {clean ? `Plates: ${plates}. Commit to place them all.` : 'Nothing was written. Correct these rows and check the file again.'}
      </Notice>
      {!clean && <CheckErrors check={check} />}
      {check.rowCount > check.rows.length && <Text fz="sm" c="dimmed">The first {formatCount(check.rows.length)} rows are shown.</Text>}
      <CheckRows check={check} />
    </Stack>
  );
}

/** A commit refused row by row: each row's sentence. */
function refusalLines(error: unknown): string[] {
  if (error instanceof ApiError && error.fields.length) return error.fields.map((f) => f.message);
  return [commandError(error)];
}

/**
 * Placing samples from a file (CSV or XLSX: plate, well, sample_id): check it (every row, nothing
 * written), then commit it: every row, or nothing. Plates the file names that do not exist yet
 * are created.
 */
export function StorageImport() {
  const refresh = useRefreshStorage();
  const [file, setFile] = useState<File | null>(null);
  const [check, setCheck] = useState<StorageImportCheck | null>(null);
  const [committed, setCommitted] = useState<StorageImportCommitted | null>(null);
  const checking = useCommand('storage-import:check', (f: File) => importStorageFile(f, 'dry-run'));
  const committing = useCommand('storage-import:commit', (f: File) => importStorageFile(f, 'commit'));
  const tooLarge = file !== null && file.size > STORAGE_IMPORT_MAX_BYTES;

  const runCheck = async () => {
    if (!file) return;
    committing.reset();
    setCommitted(null);
    setCheck((await checking.trigger(file).catch(() => undefined)) ?? null);
  };
  const runCommit = async () => {
    if (!file) return;
    const answer = await committing.trigger(file).catch(() => undefined);
    if (!answer) return;
    setCommitted(answer);
    setCheck(null);
    setFile(null);
    refresh();
  };
  const error = checking.error ?? committing.error;

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} fz="lg">Place samples from a file</Title>
        <Text fz="sm">
          A CSV or Excel (.xlsx) file with a header row and the columns <b>{STORAGE_IMPORT_COLUMNS.plate}</b>, <b>{STORAGE_IMPORT_COLUMNS.well}</b> and{' '}
          <b>{STORAGE_IMPORT_COLUMNS.sampleId}</b>; at most {formatCount(STORAGE_IMPORT_MAX_ROWS)} rows and {formatCount(STORAGE_IMPORT_MAX_BYTES / 1024)} KB.
          Cells are read exactly as written: a space before or after a value is an error.
        </Text>
        <Group align="flex-end" gap="sm">
          <FileInput
            label="Plate file"
            description="A .csv or .xlsx file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            value={file}
            onChange={(f) => { setFile(f); setCheck(null); checking.reset(); committing.reset(); }}
            error={tooLarge ? `The file is larger than ${formatCount(STORAGE_IMPORT_MAX_BYTES / 1024)} KB: split it` : undefined}
            clearable
            style={{ flex: 1, minWidth: 240 }}
          />
          <Button onClick={() => void runCheck()} disabled={!file || tooLarge} loading={checking.isMutating}>Check the file</Button>
        </Group>
        {error !== undefined && (
          <Notice color="red" title={committing.error ? 'Nothing was written' : 'The file cannot be checked'}>
            <List size="sm">{refusalLines(error).map((line) => <List.Item key={line}>{line}</List.Item>)}</List>
          </Notice>
        )}
        {check && <CheckView check={check} />}
        {check && (
          <Group>
            <Button color={AA_COLORS.green} onClick={() => void runCommit()} disabled={check.errorCount > 0} loading={committing.isMutating}>
              Commit {plural(check.rowCount, 'row')}
            </Button>
          </Group>
        )}
        {committed && <Notice color="green" title="Placed">{committed.message}</Notice>}
      </Stack>
    </Paper>
  );
}

import type { WorkerDeps } from '../processors/types';

export async function renderLabReport(_deps: WorkerDeps, _sampleId: number, _testResultId: number): Promise<{ pdf: Buffer; corrected: boolean }> {
  throw new Error('lab report is being written');
}

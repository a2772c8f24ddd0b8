/**
 * Work found by looking rather than by a job: every worker looks on a timer, with the real clock,
 * and the look itself (in server/) takes each row locked, so several workers looking at once never
 * do one row twice. A look that fails (the database away for a moment) is logged and tried again
 * at the next tick.
 * - follow-ups due are emailed (sendDueFollowUps), once a minute;
 * - patient orders left unpaid past their time are closed (expireUnpaidOrders), every 15 minutes;
 * - public health's batch file of a finished day is written (writeDueElrBatches), every 5 minutes;
 * - results held for the clinic's review whose hold has ended go to the patient (releaseDueHolds), once a minute;
 * - new audit rows are sealed into the audit trail's hash chain (sealAuditEvents), every few seconds;
 * - the audit table's partitions of the coming months exist (ensureAuditMonths), every hour.
 */
import { AUDIT_PARTITION_SCAN_INTERVAL_MS, AUDIT_SEAL_INTERVAL_MS, ELR_BATCH_SCAN_INTERVAL_MS, FOLLOW_UP_SCAN_INTERVAL_MS, PATIENT_HOLD_SCAN_INTERVAL_MS, UNPAID_ORDER_SCAN_INTERVAL_MS } from '@platform/domain';
import { ensureAuditMonths, expireUnpaidOrders, releaseDueHolds, sealAuditEvents, sendDueFollowUps, writeDueElrBatches } from '@platform/server';
import type { WorkerDeps } from './processors/types';

export interface Scanner {
  stop(): Promise<void>;
}

interface ScanSpec<T extends object> {
  /** What the log calls it. */
  name: string;
  intervalMs: number;
  look(now: Date): Promise<T>;
  /** Whether a look's outcome did something worth a log line. */
  didWork(outcome: T): boolean;
}

function startScanner<T extends object>(deps: WorkerDeps, spec: ScanSpec<T>): Scanner {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = spec.look(new Date())
      .then((outcome) => {
        if (spec.didWork(outcome)) deps.logger.info({ scanner: spec.name, outcome } as Record<string, unknown>, `${spec.name}: done`);
      })
      .catch((err: Error) => deps.logger.warn({ err: err.message }, `${spec.name}: look failed; the next tick tries again`))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, spec.intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/** Every scanner a worker runs; stop() ends them all (each finishes its look in progress). */
export function startScanners(deps: WorkerDeps): Scanner {
  const scanners = [
    startScanner(deps, {
      name: 'follow-ups', intervalMs: FOLLOW_UP_SCAN_INTERVAL_MS,
      look: (now) => sendDueFollowUps(deps, { now }),
      didWork: (o) => o.sent + o.reminded + o.notSendable > 0,
    }),
    startScanner(deps, {
      name: 'unpaid orders', intervalMs: UNPAID_ORDER_SCAN_INTERVAL_MS,
      look: (now) => expireUnpaidOrders(deps, { now }),
      didWork: (o) => o.expired > 0,
    }),
    startScanner(deps, {
      name: 'ELR batch files', intervalMs: ELR_BATCH_SCAN_INTERVAL_MS,
      look: (now) => writeDueElrBatches(deps, { now }),
      didWork: (o) => o.batched + o.written > 0,
    }),
    startScanner(deps, {
      name: 'patient release holds', intervalMs: PATIENT_HOLD_SCAN_INTERVAL_MS,
      look: (now) => releaseDueHolds(deps, { now }),
      didWork: (o) => o.released > 0,
    }),
    startScanner(deps, {
      name: 'audit seal', intervalMs: AUDIT_SEAL_INTERVAL_MS,
      look: () => sealAuditEvents(deps.db),
      didWork: () => false,
    }),
    startScanner(deps, {
      name: 'audit partitions', intervalMs: AUDIT_PARTITION_SCAN_INTERVAL_MS,
      look: (now) => ensureAuditMonths(deps.db, { now }),
      didWork: (o) => o.made > 0,
    }),
  ];
  return {
    async stop() {
      await Promise.all(scanners.map((s) => s.stop()));
    },
  };
}

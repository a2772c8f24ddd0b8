/**
 * Every worker looks for follow-ups to email once a minute (FOLLOW_UP_SCAN_INTERVAL_MS), with the
 * real clock: sendDueFollowUps (server/src/follow-ups) does the work, a row at a time and locked,
 * so several workers scanning at once never email one follow-up twice. A look that fails (the
 * database away for a moment) is logged and tried again at the next tick.
 */
import { FOLLOW_UP_SCAN_INTERVAL_MS } from '@platform/domain';
import { sendDueFollowUps } from '@platform/server';
import type { WorkerDeps } from './processors/types';

export interface FollowUpScanner {
  stop(): Promise<void>;
}

export function startFollowUpScanner(deps: WorkerDeps, intervalMs = FOLLOW_UP_SCAN_INTERVAL_MS): FollowUpScanner {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = sendDueFollowUps(deps, { now: new Date() })
      .then((outcome) => {
        if (outcome.sent || outcome.reminded || outcome.notSendable) deps.logger.info(outcome, 'follow-ups emailed');
      })
      .catch((err: Error) => deps.logger.warn({ err: err.message }, 'follow-up scan failed; the next tick tries again'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

import { REJECTION_REASONS, SampleStatus as S, type SampleStatus } from './enums';

/** Who moves a sample: a person of a kind, or the system itself (webhooks, jobs). */
export type Actor = 'provider' | 'lab' | 'admin' | 'system';

export interface Transition {
  from: SampleStatus;
  to: SampleStatus;
  by: readonly Actor[];
  reasonRequired: boolean;
  /** Leaving In Storage is allowed only back to the status the sample had when it went in. */
  onlyBackToStatusBeforeStorage?: boolean;
  /** When set, the reason must be exactly one of these (a rejection names one of the spec's reasons). */
  allowedReasons?: readonly string[];
  what: string;
}

const RECEIVED_STATUSES = [S.InQueue, S.InTesting, S.Resulted, S.Completed] as const;
const REJECTABLE_STATUSES = [S.PendingShipment, S.InTransit, S.InQueue, S.InTesting] as const;
/** A kit not yet sent back to the lab: a cancelled order discards it. */
const KIT_NEVER_USED_STATUSES = [S.OrderPlaced, S.PendingShipment] as const;

/** The sample lifecycle of DESIGN.md: nothing changes a sample's status except through this table. */
export const SAMPLE_TRANSITIONS: readonly Transition[] = [
  { from: S.OrderPlaced, to: S.PendingShipment, by: ['provider', 'lab', 'admin', 'system'], reasonRequired: false, what: 'kit ready to ship' },
  { from: S.PendingShipment, to: S.InTransit, by: ['provider', 'lab', 'system'], reasonRequired: false, what: 'shipped' },
  { from: S.InTransit, to: S.InQueue, by: ['lab'], reasonRequired: false, what: 'received at the lab' },
  { from: S.PendingShipment, to: S.InQueue, by: ['lab'], reasonRequired: false, what: 'received at the lab without tracking' },
  { from: S.InQueue, to: S.InTesting, by: ['lab'], reasonRequired: false, what: 'testing started' },
  { from: S.InTesting, to: S.Resulted, by: ['lab'], reasonRequired: false, what: 'result approved and released' },
  { from: S.Resulted, to: S.Completed, by: ['lab', 'system'], reasonRequired: false, what: 'result delivered' },
  { from: S.Completed, to: S.Discarded, by: ['lab'], reasonRequired: false, what: 'specimen discarded' },
  // A patient order cancelled before its kit was used (docs/patient-ordering-api.md): the kit is void.
  ...KIT_NEVER_USED_STATUSES.map((from) => ({
    from, to: S.Discarded, by: ['provider', 'admin'] as const, reasonRequired: true, what: 'kit cancelled before use',
  })),
  ...REJECTABLE_STATUSES.map((from) => ({
    from, to: S.Rejected, by: ['lab'] as const, reasonRequired: true, allowedReasons: REJECTION_REASONS, what: 'sample rejected',
  })),
  ...RECEIVED_STATUSES.map((from) => ({
    from, to: S.InStorage, by: ['lab'] as const, reasonRequired: false, what: 'moved to storage',
  })),
  ...RECEIVED_STATUSES.map((to) => ({
    from: S.InStorage, to, by: ['lab'] as const, reasonRequired: false, onlyBackToStatusBeforeStorage: true, what: 'taken out of storage',
  })),
];

export interface TransitionRequest {
  from: SampleStatus;
  to: SampleStatus;
  actor: Actor;
  reason?: string | null;
  /** The status the sample had before it entered In Storage (needed only to leave storage). */
  statusBeforeStorage?: SampleStatus | null;
}

export type TransitionCheck = { ok: true; transition: Transition } | { ok: false; error: string };

/** Says whether a status change is allowed, and why not in words a lab user can act on. */
export function checkTransition(req: TransitionRequest): TransitionCheck {
  const candidates = SAMPLE_TRANSITIONS.filter((t) => t.from === req.from && t.to === req.to);
  if (candidates.length === 0) return { ok: false, error: `A sample cannot go from ${req.from} to ${req.to}` };
  const transition = candidates.find((t) => t.by.includes(req.actor));
  if (!transition) return { ok: false, error: `A ${req.actor} user cannot move a sample from ${req.from} to ${req.to}` };
  if (transition.reasonRequired && !req.reason?.trim()) return { ok: false, error: `A reason is required to move a sample to ${req.to}` };
  if (transition.allowedReasons && !transition.allowedReasons.includes(req.reason ?? '')) {
    return { ok: false, error: `The reason must be one of: ${transition.allowedReasons.join('; ')}` };
  }
  if (transition.onlyBackToStatusBeforeStorage && req.statusBeforeStorage !== req.to) {
    return { ok: false, error: `A sample leaves storage only for the status it had before (${req.statusBeforeStorage ?? 'unknown'})` };
  }
  return { ok: true, transition };
}

export function nextStatuses(from: SampleStatus, actor: Actor): SampleStatus[] {
  return SAMPLE_TRANSITIONS.filter((t) => t.from === from && t.by.includes(actor)).map((t) => t.to);
}

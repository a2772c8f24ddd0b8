/** The sample lifecycle of DESIGN.md: who may move a sample from which status to which, and what a move writes. */
import { valuesOf } from '../shared/values';
import { REJECTION_REASONS, type SampleStatus, SampleStatus as S } from './statuses';

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
  /**
   * Lab work that goes on while the sample sits In Storage (its result imported, approved,
   * delivered; the sample rejected): the sample stays In Storage and the status it goes back to
   * advances instead (planStatusChange).
   */
  whileStored?: boolean;
  what: string;
}

const RECEIVED_STATUSES = [S.InQueue, S.InTesting, S.Resulted, S.Completed] as const;
const REJECTABLE_STATUSES = [S.PendingShipment, S.InTransit, S.InQueue, S.InTesting] as const;
/** A sample is rejected while stored only from a status it can be stored in. */
const STORED_REJECTABLE: readonly SampleStatus[] = [S.InQueue, S.InTesting];
/** The statuses a sample leaves storage for: those it is stored from, and Rejected (rejected while stored). */
const BACK_FROM_STORAGE_STATUSES = [...RECEIVED_STATUSES, S.Rejected] as const;
/**
 * A sample the lab has not received: a cancelled order discards it (a patient's own order only
 * before its kit ships; a clinic's order until the lab receives the sample, docs/clinical-orders.md,
 * after which intake refuses the discarded sample).
 */
export const NOT_RECEIVED_STATUSES: readonly SampleStatus[] = [S.OrderPlaced, S.PendingShipment, S.InTransit];

/** The sample lifecycle of DESIGN.md: nothing changes a sample's status except through this table. */
export const SAMPLE_TRANSITIONS: readonly Transition[] = [
  { from: S.OrderPlaced, to: S.PendingShipment, by: ['provider', 'lab', 'admin', 'system'], reasonRequired: false, what: 'kit ready to ship' },
  { from: S.PendingShipment, to: S.InTransit, by: ['provider', 'lab', 'system'], reasonRequired: false, what: 'shipped' },
  { from: S.InTransit, to: S.InQueue, by: ['lab'], reasonRequired: false, what: 'received at the lab' },
  { from: S.PendingShipment, to: S.InQueue, by: ['lab'], reasonRequired: false, what: 'received at the lab without tracking' },
  { from: S.InQueue, to: S.InTesting, by: ['lab'], reasonRequired: false, whileStored: true, what: 'testing started' },
  { from: S.InTesting, to: S.Resulted, by: ['lab'], reasonRequired: false, whileStored: true, what: 'result approved and released' },
  { from: S.Resulted, to: S.Completed, by: ['lab', 'system'], reasonRequired: false, whileStored: true, what: 'result delivered' },
  { from: S.Completed, to: S.Discarded, by: ['lab'], reasonRequired: false, what: 'specimen discarded' },
  // An order cancelled before the lab received its sample (docs/patient-ordering-api.md, docs/clinical-orders.md): the kit is void.
  ...NOT_RECEIVED_STATUSES.map((from) => ({
    from, to: S.Discarded, by: ['provider', 'admin'] as const, reasonRequired: true, what: 'order cancelled before the lab received the sample',
  })),
  ...REJECTABLE_STATUSES.map((from) => ({
    from, to: S.Rejected, by: ['lab'] as const, reasonRequired: true, allowedReasons: REJECTION_REASONS,
    ...(STORED_REJECTABLE.includes(from) ? { whileStored: true } : {}), what: 'sample rejected',
  })),
  ...RECEIVED_STATUSES.map((from) => ({
    from, to: S.InStorage, by: ['lab'] as const, reasonRequired: false, what: 'moved to storage',
  })),
  ...BACK_FROM_STORAGE_STATUSES.map((to) => ({
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

// ---------------------------------------------------------------------------------------------
// A sample In Storage: its lab work goes on
// ---------------------------------------------------------------------------------------------

/** A sample as the lifecycle sees it: its status and, while it is In Storage, the status it goes back to. */
export interface SampleState {
  status: SampleStatus;
  statusBeforeStorage: SampleStatus | null;
}

/**
 * Where a sample's lab work stands: its status, or for a sample In Storage the status it goes
 * back to (which lab work keeps advancing while it is stored). The clinic's lists, the release
 * rule, result imports and the plate map read a sample by this.
 */
export function workStatusOf(sample: SampleState): SampleStatus {
  return sample.status === S.InStorage && sample.statusBeforeStorage ? sample.statusBeforeStorage : sample.status;
}

/** A sample's status in words: "In Testing", or for a stored sample "In Storage (Resulted when taken out)". */
export function describeSampleStatus(sample: SampleState): string {
  const work = workStatusOf(sample);
  return work === sample.status ? sample.status : `${sample.status} (${work} when taken out)`;
}

/** What a stored sample's status event says besides the step itself. */
export const STAYS_IN_STORAGE = 'the sample stays In Storage';

/** The reason on the status event of a step taken while the sample is In Storage. */
export function storedStepReason(reason: string | null | undefined): string {
  const given = reason?.trim();
  return given ? `${given} (${STAYS_IN_STORAGE})` : `${STAYS_IN_STORAGE.charAt(0).toUpperCase()}${STAYS_IN_STORAGE.slice(1)}`;
}

export interface StatusChangeRequest {
  to: SampleStatus;
  actor: Actor;
  reason?: string | null;
}

/** What a status change writes: the sample's row, and its status event (the timeline). */
export interface StatusChangePlan {
  ok: true;
  transition: Transition;
  /** The sample's status and status before storage after the change. */
  status: SampleStatus;
  statusBeforeStorage: SampleStatus | null;
  /** The status event: the step the sample's work took (In Testing -> Resulted even while stored) and its reason. */
  event: { from: SampleStatus; to: SampleStatus; reason: string | null };
  /** The step was taken while the sample is In Storage: it stays there. */
  inStorage: boolean;
}

export type StatusChangeCheck = StatusChangePlan | { ok: false; error: string };

/**
 * The one rule of a status change, for a sample as it is (moveSample and the set-based moves of
 * the imports both write what this answers):
 * - a sample not In Storage moves as the table says (into storage it remembers the status it left);
 * - a sample In Storage taken out goes back to the status it left (`to` = that status);
 * - any other step of a stored sample is its lab work going on: allowed when the table allows it
 *   from the status the sample left and marks it `whileStored`; the sample stays In Storage, the
 *   status it goes back to advances exactly as its status would have, and the status event says
 *   so (from and to as the work moved, the reason saying it stays In Storage).
 */
export function planStatusChange(sample: SampleState, req: StatusChangeRequest): StatusChangeCheck {
  const { status: from, statusBeforeStorage } = sample;
  const reason = req.reason ?? null;
  if (from === S.InStorage && req.to !== S.InStorage && req.to !== statusBeforeStorage) {
    if (!statusBeforeStorage) return { ok: false, error: 'A sample In Storage without the status it left cannot move' };
    const check = checkTransition({ from: statusBeforeStorage, to: req.to, actor: req.actor, reason });
    if (!check.ok) return { ok: false, error: `The sample is In Storage (it left ${statusBeforeStorage}): ${check.error}` };
    if (!check.transition.whileStored) {
      return { ok: false, error: `The sample is In Storage: take it out of storage before it goes from ${statusBeforeStorage} to ${req.to}` };
    }
    return {
      ok: true, transition: check.transition, status: S.InStorage, statusBeforeStorage: req.to,
      event: { from: statusBeforeStorage, to: req.to, reason: storedStepReason(reason) }, inStorage: true,
    };
  }
  const check = checkTransition({ from, to: req.to, actor: req.actor, reason, statusBeforeStorage });
  if (!check.ok) return check;
  return {
    ok: true, transition: check.transition, status: req.to, statusBeforeStorage: req.to === S.InStorage ? from : null,
    event: { from, to: req.to, reason }, inStorage: false,
  };
}

export function nextStatuses(from: SampleStatus, actor: Actor): SampleStatus[] {
  return SAMPLE_TRANSITIONS.filter((t) => t.from === from && t.by.includes(actor)).map((t) => t.to);
}

/** Who moved a sample (sample_status_events.actor_kind): the domain's `Actor`. */
export const ActorKind = { Provider: 'provider', Lab: 'lab', Admin: 'admin', System: 'system' } as const satisfies Record<string, Actor>;
export type ActorKind = Actor;
export const ACTOR_KINDS: Actor[] = valuesOf(ActorKind);
// Compile-time check that ActorKind names every Actor.
const everyActorListed: Exclude<Actor, (typeof ActorKind)[keyof typeof ActorKind]> extends never ? true : never = true;
void everyActorListed;

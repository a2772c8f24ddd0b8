/**
 * Value lists of stored columns that SPEC §3 does not enumerate (so they are not in enums.ts)
 * but that the database checks and api, worker and web use. Same shape as enums.ts: an object
 * for names in code plus the list of its values for CHECK constraints and validation.
 */
import { FILE_KINDS, REQUEST_STATUSES, RequestStatus, valuesOf, type FileKind } from './enums';
import type { Actor } from './sample-lifecycle';


/** A result version: waits in review, then released or rejected; a released one is superseded by its correction. */
export const TestResultStatus = {
  InReview: 'In Review',
  Released: 'Released',
  Rejected: 'Rejected',
  Superseded: 'Superseded',
} as const;
export type TestResultStatus = (typeof TestResultStatus)[keyof typeof TestResultStatus];
export const TEST_RESULT_STATUSES = valuesOf(TestResultStatus);

/** The status a test row starts with (tests.status is free text: the lab's own workflow words). */
export const INITIAL_TEST_STATUS = 'Ordered';

export const EmailStatus = { Pending: 'Pending', Sent: 'Sent', Failed: 'Failed' } as const;
export type EmailStatus = (typeof EmailStatus)[keyof typeof EmailStatus];
export const EMAIL_STATUSES = valuesOf(EmailStatus);

export const OutboxStatus = { Pending: 'pending', Enqueued: 'enqueued' } as const;
export type OutboxStatus = (typeof OutboxStatus)[keyof typeof OutboxStatus];
export const OUTBOX_STATUSES = valuesOf(OutboxStatus);

/** A patient invitation: the spec's request status (Requested), then accepted or cancelled. */
export const InvitationStatus = { ...RequestStatus, Accepted: 'Accepted', Cancelled: 'Cancelled' } as const;
export type InvitationStatus = (typeof InvitationStatus)[keyof typeof InvitationStatus];
export const INVITATION_STATUSES: InvitationStatus[] = [...REQUEST_STATUSES, InvitationStatus.Accepted, InvitationStatus.Cancelled];

/** Who moved a sample (sample_status_events.actor_kind): the domain's `Actor`. */
export const ActorKind = { Provider: 'provider', Lab: 'lab', Admin: 'admin', System: 'system' } as const satisfies Record<string, Actor>;
export type ActorKind = Actor;
export const ACTOR_KINDS: Actor[] = valuesOf(ActorKind);
// Compile-time check that ActorKind names every Actor.
const everyActorListed: Exclude<Actor, (typeof ActorKind)[keyof typeof ActorKind]> extends never ? true : never = true;
void everyActorListed;

/** Who did an audited thing: the sample actors plus patients (by result link) and nobody signed in. */
export const AuditActorKind = { ...ActorKind, Patient: 'patient', Anonymous: 'anonymous' } as const;
export type AuditActorKind = (typeof AuditActorKind)[keyof typeof AuditActorKind];
export const AUDIT_ACTOR_KINDS = valuesOf(AuditActorKind);

/** files.kind: the spec's file kinds plus a plain upload (an import file, for example). */
export const UPLOAD_FILE_KIND = 'Upload';
export type StoredFileKind = FileKind | typeof UPLOAD_FILE_KIND;
export const STORED_FILE_KINDS: StoredFileKind[] = [...FILE_KINDS, UPLOAD_FILE_KIND];

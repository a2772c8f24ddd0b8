/** The stored columns' value lists live with the lab's rules in domain/; re-exported for db users. */
export {
  TestResultStatus, TEST_RESULT_STATUSES, INITIAL_TEST_STATUS, EmailStatus, EMAIL_STATUSES, OutboxStatus, OUTBOX_STATUSES,
  InvitationStatus, INVITATION_STATUSES, ActorKind, ACTOR_KINDS, AuditActorKind, AUDIT_ACTOR_KINDS, UPLOAD_FILE_KIND, STORED_FILE_KINDS,
  type StoredFileKind,
} from '@platform/domain';

/**
 * The lab's questions to a clinic's patients (docs/registry-and-follow-ups.md) still waiting for
 * the patient's answer, as SQL for counting (the clinic's home: docs/worklists.md).
 */
import { FollowUpKind, FollowUpStatus, UserKind } from '@platform/domain';

/**
 * SQL: follow-up f is a question the lab asked (by a user who is not a provider, as the question's
 * email names its asker) that the patient has not answered yet (Sent or Reminded); its values are
 * LAB_QUESTION_WAITING_CONSTANTS.
 */
export const LAB_QUESTION_WAITING_SQL = `f.kind = :question AND f.status IN (:waitingAnswer)
  AND EXISTS (SELECT 1 FROM users qu WHERE qu.id = f.asked_by_user_id AND qu.kind <> :provider)`;
export const LAB_QUESTION_WAITING_CONSTANTS = {
  question: FollowUpKind.Question, waitingAnswer: [FollowUpStatus.Sent, FollowUpStatus.Reminded], provider: UserKind.Provider,
};

/**
 * One attempt of an HL7 v2 message to an account's EHR (server/src/hl7/result-messages.ts): the
 * result's lab report is rendered first when it is not stored yet (render-pdf's own idempotent
 * work; the release queued render-pdf too, and whichever stores the report first wins: render-pdf
 * takes the other's), then the ORU^R01 is sent over MLLP; AE, AR or no ACK throws and BullMQ retries with the
 * message's back-off; after the last attempt the message is Failed, shown in the account's log
 * with "Resend".
 */
import { DocumentType } from '@platform/domain';
import { attemptHl7Send, finishHl7Message } from '@platform/server';
import type { Processor } from './types';
import { renderPdf } from './render-pdf';

export const sendHl7: Processor<'send-hl7'> = async ({ messageId }, deps, tools) => ({
  ...(await attemptHl7Send(deps, messageId, {
    ensureReport: async (sampleId, testResultId) => {
      await renderPdf({ sampleId, documentType: DocumentType.LabReport, testResultId }, deps, tools);
    },
  })),
});

sendHl7.onFinalFailure = async ({ messageId }, deps, { error, transaction }) => {
  await finishHl7Message(deps, messageId, `${error.message} (gave up after ${deps.config.hl7Attempts} attempts)`, transaction);
};

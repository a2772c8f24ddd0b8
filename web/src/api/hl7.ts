/** An account's HL7 v2 interface and its message log (issue 28), run by the lab's admin at /admin/accounts/{accountId}/…. */
import type { Hl7InterfaceBody, Hl7InterfaceView, Hl7MessageView } from '@platform/domain';
import { apiFetch } from './fetcher';
import { useApiQuery, useRefreshApi } from './query';

export type { Hl7InterfaceView, Hl7MessageView };

const interfacePath = (accountId: number) => `/admin/accounts/${accountId}/hl7-interface`;
const messagesPath = (accountId: number) => `/admin/accounts/${accountId}/hl7-messages`;

export const useHl7Interface = (accountId: number) => useApiQuery<Hl7InterfaceView>(interfacePath(accountId), { errorHeading: 'Error retrieving the HL7 interface' });

export const saveHl7Interface = (accountId: number, body: Hl7InterfaceBody) => apiFetch<Hl7InterfaceView>(interfacePath(accountId), { method: 'PUT', body });

/** Sent at once; the answer is the logged message with the receiver's ACK (or why none came). */
export const sendHl7TestMessage = (accountId: number) => apiFetch<Hl7MessageView>(`${interfacePath(accountId)}/test-message`, { method: 'POST' });

export const useHl7Messages = (accountId: number) => useApiQuery<Hl7MessageView[]>(messagesPath(accountId), { errorHeading: 'Error retrieving HL7 messages' });

export const useRefreshHl7Messages = (accountId: number) => useRefreshApi(messagesPath(accountId));

/** The same result sent again as a new message (a new control id). */
export const resendHl7Message = (accountId: number, messageId: number) => apiFetch<Hl7MessageView>(`${messagesPath(accountId)}/${messageId}/resend`, { method: 'POST' });

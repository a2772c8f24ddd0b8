/**
 * Electronic lab reporting (issue 28, item 4): where the lab's COVID-19 results go to public health
 * (HL7 v2.5.1 ELR over MLLP or in a daily batch file) and what was sent, run by the lab's admin at
 * /admin/public-health/elr….
 */
import type { ElrBatchView, ElrDayView, ElrReportView, ElrSettingsBody, ElrSettingsView, Hl7MessageView } from '@platform/domain';
import { apiFetch } from './fetcher';
import { useApiQuery, useRefreshApi } from './query';

export type { ElrBatchView, ElrDayView, ElrReportView, ElrSettingsView, Hl7MessageView };

const SETTINGS_PATH = '/admin/public-health/elr';
const REPORT_PATH = `${SETTINGS_PATH}/report`;

/** `configured: false` and the defaults before the first save. */
export const useElrSettings = () => useApiQuery<ElrSettingsView>(SETTINGS_PATH, { errorHeading: 'Error retrieving the public health reporting settings' });

export const saveElrSettings = (body: ElrSettingsBody) => apiFetch<ElrSettingsView>(SETTINGS_PATH, { method: 'PUT', body });

/** Per day what was reported and how far it got, the latest batch files, the latest messages. */
export const useElrReport = () => useApiQuery<ElrReportView>(REPORT_PATH, { errorHeading: 'Error retrieving the public health report' });

export const useRefreshElrReport = () => useRefreshApi(REPORT_PATH);

/** Every waiting report written to a batch file now (409 when the mode is not batch-file or nothing waits). */
export const writeElrBatch = () => apiFetch<ElrBatchView>(`${SETTINGS_PATH}/batches`, { method: 'POST' });

/** A failed report sent again as a new message (a new control id). */
export const resendElrMessage = (messageId: number) => apiFetch<Hl7MessageView>(`${SETTINGS_PATH}/messages/${messageId}/resend`, { method: 'POST' });

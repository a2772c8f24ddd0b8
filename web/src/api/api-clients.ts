/**
 * An account's API clients (issue 27): the clinic's Super Admin at /provider-clinic/{accountId}/api-clients,
 * the lab's admin at /admin/accounts/{accountId}/api-clients; the same answers at both.
 */
import type { ApiClientView, CreateApiClientBody, CreatedApiClient, WebhookDeliveryView } from '@platform/domain';
import { apiFetch } from './fetcher';
import { clinicApiPath } from './clinic';
import { useApiQuery, useRefreshApi } from './query';

export type { ApiClientView, CreatedApiClient };

/** Where one account's clients live: the clinic's path for its Super Admin, the admin's for the lab. */
export type ApiClientsOwner = { by: 'clinic' | 'admin'; accountId: number };

export const apiClientsPath = ({ by, accountId }: ApiClientsOwner) =>
  by === 'clinic' ? clinicApiPath(accountId, 'api-clients') : `/admin/accounts/${accountId}/api-clients`;

export const useApiClients = (owner: ApiClientsOwner) =>
  useApiQuery<ApiClientView[]>(apiClientsPath(owner), { errorHeading: 'Error retrieving API clients', quietStatuses: [403] });

export const useRefreshApiClients = (owner: ApiClientsOwner) => useRefreshApi(apiClientsPath(owner));

/** A new client; the answer carries its secrets, shown this once. */
export const createApiClient = (owner: ApiClientsOwner, body: CreateApiClientBody) =>
  apiFetch<CreatedApiClient>(apiClientsPath(owner), { method: 'POST', body });

/** Revoked at once: its tokens stop working. */
export const revokeApiClient = (owner: ApiClientsOwner, clientId: string) =>
  apiFetch<ApiClientView>(`${apiClientsPath(owner)}/${encodeURIComponent(clientId)}`, { method: 'DELETE' });

export type { WebhookDeliveryView };

const deliveriesPath = (owner: ApiClientsOwner, clientId: string) => `${apiClientsPath(owner)}/${encodeURIComponent(clientId)}/deliveries`;

/** A client's newest webhook deliveries and how each went. */
export const useWebhookDeliveries = (owner: ApiClientsOwner, clientId: string | null) =>
  useApiQuery<WebhookDeliveryView[]>(clientId ? deliveriesPath(owner, clientId) : null, { errorHeading: 'Error retrieving webhook deliveries' });

/** The same notice (same webhook-id) sent again. */
export const redeliverWebhook = (owner: ApiClientsOwner, clientId: string, deliveryId: number) =>
  apiFetch<WebhookDeliveryView>(`${deliveriesPath(owner, clientId)}/${deliveryId}/redeliver`, { method: 'POST' });

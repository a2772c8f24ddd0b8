/** What the audit trail records: who did an audited thing, and what kind of thing it was done to. */
import { ActorKind } from '../samples/lifecycle';
import { valuesOf } from './values';

export const EntityKind = {
  Sample: 'sample',
  Patient: 'patient',
  EligibilityQuestion: 'eligibilityQuestion',
  Test: 'test',
  File: 'file',
  Shipment: 'shipment',
} as const;
export type EntityKind = (typeof EntityKind)[keyof typeof EntityKind];
export const ENTITY_KINDS = valuesOf(EntityKind);

/** Who did an audited thing: the sample actors plus patients (by result link), nobody signed in, and an account's API client (machine). */
export const AuditActorKind = { ...ActorKind, Patient: 'patient', Anonymous: 'anonymous', ApiClient: 'api_client' } as const;
export type AuditActorKind = (typeof AuditActorKind)[keyof typeof AuditActorKind];
export const AUDIT_ACTOR_KINDS = valuesOf(AuditActorKind);

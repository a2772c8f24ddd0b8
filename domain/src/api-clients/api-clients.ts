/**
 * Machines of an account (an EHR, a practice system) reach its results with credentials of their
 * own: an API client per system, OAuth 2.0 client credentials, SMART v2 system scopes.
 */

/** A bearer token's life: short, so a revoked client or a leaked token stops within minutes at worst. */
export const ACCESS_TOKEN_SECONDS = 300;

export const API_CLIENT_NAME_MAX_LENGTH = 100;
export const WEBHOOK_URL_MAX_LENGTH = 2000;

/** The FHIR resource types an API client reads; each has its SMART v2 system scope `system/<Type>.rs`. */
export const FHIR_SCOPED_TYPES = ['DiagnosticReport', 'Observation', 'Patient', 'ServiceRequest', 'Specimen', 'Practitioner', 'Organization'] as const;
export type FhirScopedType = (typeof FHIR_SCOPED_TYPES)[number];

/** Token requests (per client and per address) allowed in a window before 429. */
export const TOKEN_REQUESTS_PER_CLIENT = 60;
export const TOKEN_REQUESTS_PER_ADDRESS = 120;
export const TOKEN_THROTTLE_WINDOW_SECONDS = 60;

/** What a scope grants: read and search of one type or of every type ("*"). */
export interface ScopeGrant {
  type: FhirScopedType | '*';
  read: boolean;
  search: boolean;
}

const SMART_SYSTEM_SCOPE = /^system\/(\*|[A-Za-z]+)\.(c?r?u?d?s?|read|write|\*)$/;

/**
 * Reads a requested scope string (space-separated SMART scopes). Only read and search are ever
 * granted: a scope asking for more (c, u, d, write, *) or naming an unknown type is refused whole
 * (`invalid`), as RFC 6749 §5.2 lets a server refuse rather than narrow silently.
 */
export function parseSystemScopes(requested: string): { grants: ScopeGrant[]; scopes: string[] } | { invalid: string } {
  const words = requested.split(' ').filter(Boolean);
  const grants: ScopeGrant[] = [];
  for (const word of words) {
    const m = SMART_SYSTEM_SCOPE.exec(word);
    if (!m) return { invalid: word };
    const [, type, perms] = m;
    if (type !== '*' && !(FHIR_SCOPED_TYPES as readonly string[]).includes(type)) return { invalid: word };
    // SMART v1 `read` reads and searches; v2 letters must be r and/or s only.
    if (perms === 'write' || perms === '*' || /[cud]/.test(perms) || perms === '') return { invalid: word };
    const read = perms === 'read' || perms.includes('r');
    const search = perms === 'read' || perms.includes('s');
    grants.push({ type: type as ScopeGrant['type'], read, search });
  }
  return { grants, scopes: words };
}

/** Every scope a client may hold: all read and search. */
export const ALL_SYSTEM_SCOPES = 'system/*.rs';

/** Whether the granted scopes allow this interaction on this type. */
export function scopeAllows(grants: ScopeGrant[], type: string, interaction: 'read' | 'search'): boolean {
  return grants.some((g) => (g.type === '*' || g.type === type) && g[interaction]);
}

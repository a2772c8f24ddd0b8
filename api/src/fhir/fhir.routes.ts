/**
 * The FHIR R4 API at /fhir/R4 (issue 27): read, vread and search of one account's released results
 * and what they stand on, for that account's API clients with a bearer token from /oauth2/token.
 * Mounted before sessions and CSRF (a machine has no cookie; nothing here changes anything). The
 * resources are built and searched in server/src/fhir; this file is HTTP only: the token, the
 * scopes, the CapabilityStatement and SMART discovery, and OperationOutcome for every refusal.
 */
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { scopeAllows } from '@platform/domain';
import {
  apiClientCaller, capabilityStatement, clientOfBearer, isFhirResourceType, readFhirBinary, readFhirResource, searchFhirResources, smartConfiguration, systemCaller, vreadFhirResource,
  type BearerClient, type FhirResourceType, type FhirScope,
} from '@platform/server';
import type { AppContext } from '../context';
import { fhirErrors, sendOutcome } from './operation-outcome';

export const FHIR_BASE_PATH = '/fhir/R4';


const sendResource = (res: Response, resource: object) => res.set('Cache-Control', 'no-store').type('application/fhir+json').json(resource);

export function fhirRouter(ctx: AppContext): Router {
  const router = Router();
  // Every link, fullUrl and canonical starts from the deployment's public address (PUBLIC_URL).
  const fhirBaseOf = (_req: Request) => `${ctx.config.publicUrl}${FHIR_BASE_PATH}`;
  router.get('/metadata', (req, res) => {
    res.type('application/fhir+json').json(capabilityStatement(fhirBaseOf(req), ctx.config));
  });
  router.get('/.well-known/smart-configuration', (req, res) => {
    res.json(smartConfiguration(fhirBaseOf(req)));
  });

  const bearer: RequestHandler = (req, res, next) => {
    const m = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)$/i.exec(req.headers.authorization ?? '');
    if (!m) {
      res.set('WWW-Authenticate', `Bearer realm="fhir"`);
      return sendOutcome(res, 401, 'login', 'A bearer token is required: get one from /oauth2/token');
    }
    clientOfBearer(ctx, m[1]).then((client) => {
      if (!client) {
        res.set('WWW-Authenticate', `Bearer realm="fhir", error="invalid_token", error_description="The token is unknown, expired or revoked"`);
        return sendOutcome(res, 401, 'login', 'The token is unknown, expired or revoked: get a new one from /oauth2/token');
      }
      res.locals.apiClient = client;
      next();
    }, next);
  };

  /** The type of the path, if the server serves it, and the scope check for this interaction. */
  const typeAllowed = (req: Request, res: Response, interaction: 'read' | 'search', type = String(req.params.type)): FhirResourceType | null => {
    if (!isFhirResourceType(type) || type === 'CodeSystem') {
      sendOutcome(res, 404, 'not-supported', `This server does not serve ${type} resources`);
      return null;
    }
    const client = res.locals.apiClient as BearerClient;
    if (!scopeAllows(client.grants, type, interaction)) {
      sendOutcome(res, 403, 'forbidden', `The token's scopes do not allow ${interaction === 'read' ? 'reading' : 'searching'} ${type} (system/${type}.${interaction === 'read' ? 'r' : 's'})`);
      return null;
    }
    return type as FhirResourceType;
  };
  const scopeOf = (req: Request, res: Response): FhirScope => {
    const client = res.locals.apiClient as BearerClient;
    return { accountId: client.accountId, caller: apiClientCaller(client, req.ip ?? null, (res.locals.requestId as string | undefined) ?? null) };
  };
  /** The published code systems are nobody's data: read without a token, in no account. */
  const publicScope = (res: Response): FhirScope => ({ accountId: 0, caller: systemCaller((res.locals.requestId as string | undefined) ?? null) });
  const searchParamsOf = (req: Request) => new URL(req.originalUrl, 'http://localhost').searchParams;

  router.get('/CodeSystem', async (req, res) => {
    sendResource(res, await searchFhirResources(ctx, publicScope(res), 'CodeSystem', searchParamsOf(req), fhirBaseOf(req)));
  });
  router.get('/CodeSystem/:id', async (req, res) => {
    const resource = await readFhirResource(ctx, publicScope(res), 'CodeSystem', String(req.params.id));
    if (!resource) return sendOutcome(res, 404, 'not-found', `CodeSystem/${req.params.id} is not known`);
    sendResource(res, resource);
  });
  // A DiagnosticReport's PDF (presentedForm.url): the PDF itself, or a Binary resource when FHIR JSON is asked for.
  router.get('/Binary/:id', bearer, async (req, res) => {
    if (!typeAllowed(req, res, 'read', 'DiagnosticReport')) return;
    const binary = await readFhirBinary(ctx, scopeOf(req, res), String(req.params.id));
    if (!binary) return sendOutcome(res, 404, 'not-found', `Binary/${req.params.id} is not known`);
    res.set('Cache-Control', 'no-store');
    if (/application\/fhir\+json/.test(req.get('accept') ?? '')) {
      return sendResource(res, { resourceType: 'Binary', id: binary.id, contentType: binary.contentType, data: binary.content.toString('base64') });
    }
    res.type(binary.contentType).send(binary.content);
  });

  router.get('/:type', bearer, async (req, res) => {
    const type = typeAllowed(req, res, 'search');
    if (!type) return;
    sendResource(res, await searchFhirResources(ctx, scopeOf(req, res), type, searchParamsOf(req), fhirBaseOf(req)));
  });
  router.get('/:type/:id', bearer, async (req, res) => {
    const type = typeAllowed(req, res, 'read');
    if (!type) return;
    const resource = await readFhirResource(ctx, scopeOf(req, res), type, String(req.params.id));
    if (!resource) return sendOutcome(res, 404, 'not-found', `${type}/${req.params.id} is not known`);
    res.set('ETag', `W/"${resource.meta?.versionId ?? '1'}"`);
    sendResource(res, resource);
  });
  router.get('/:type/:id/_history/:versionId', bearer, async (req, res) => {
    const type = typeAllowed(req, res, 'read');
    if (!type) return;
    const resource = await vreadFhirResource(ctx, scopeOf(req, res), type, String(req.params.id), String(req.params.versionId));
    if (!resource) return sendOutcome(res, 404, 'not-found', `${type}/${req.params.id}/_history/${req.params.versionId} is not known`);
    res.set('ETag', `W/"${resource.meta?.versionId ?? req.params.versionId}"`);
    sendResource(res, resource);
  });
  // Read and search only: anything else is refused in FHIR's own shape, not the SPA's.
  router.all('/{*rest}', (req, res) => {
    if (req.method === 'GET') return sendOutcome(res, 404, 'not-found', 'No such FHIR endpoint');
    sendOutcome(res, 405, 'not-supported', 'This server is read-only: read, vread and search');
  });
  router.use(fhirErrors(ctx.logger));
  return router;
}

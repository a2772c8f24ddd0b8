/** The FHIR R4 capability (issue 27): the account's data as FHIR resources, read, vread and search; the api serves it at /fhir/R4. */
export { readFhirResource, vreadFhirResource, readFhirBinary, type FhirScope, type FhirBinary, type FhirCtx } from './read';
export { searchFhirResources } from './search';
export {
  FHIR_RESOURCES, FHIR_RESOURCE_TYPES, fhirResourceDescription, isFhirResourceType,
  type FhirResourceDescription, type FhirResourceType, type FhirSearchParamDescription,
} from './capability';
export { capabilityStatement, smartConfiguration } from './capability-statement';
export { LAB_ORGANIZATION_ID, reportBinaryId } from './builders';
export { identifierSystems, labCodeSystem, LAB_CODE_SYSTEM_IDS } from './systems';

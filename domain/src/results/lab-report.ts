/** The stored name of a released result version's report: how the worker files it, and how the FHIR API and the HL7 sender find it again. */
export const labReportFileName = (barcode: string, testResultId: number) => `lab-report-${barcode}-r${testResultId}.pdf`;

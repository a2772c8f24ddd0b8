/** Where each Lab Toolbox tool lives (SPEC §2 routes; the review page is ours). */
import { LAB_HOME_PATH } from '../../portals';

export const LAB_PATHS = {
  intake: `${LAB_HOME_PATH}/intake_tool`,
  pcrRegister: `${LAB_HOME_PATH}/pcr_register`,
  pcrResulting: `${LAB_HOME_PATH}/pcr_resulting`,
  toxicityImport: `${LAB_HOME_PATH}/cfrt_toxicity_import_tool`,
  krasImport: `${LAB_HOME_PATH}/kras_prostate_immune_import_tool`,
  dnaExtractionImport: `${LAB_HOME_PATH}/dna_extraction_import_tool`,
  review: `${LAB_HOME_PATH}/review`,
  storagePlates: `${LAB_HOME_PATH}/storage_plate_import_tool`,
  turnaround: `${LAB_HOME_PATH}/turnaround`,
  worklist: `${LAB_HOME_PATH}/worklist`,
} as const;

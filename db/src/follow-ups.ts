/** The single-use links of a sample follow-up, and the cancer diagnosis a clinic registers for a sample. */
import type { CancerSite, CancerStage, RadiationTreatment } from '@platform/domain';
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type NonAttribute,
  type Sequelize,
} from 'sequelize';
import { fk, id, subclass, timestamps, type Fk, type Nullable } from './model-kit';
import type { Models } from './models';
import type { Patient } from './patients';
import type { Sample, SampleFollowUp } from './samples';

/** One emailed link to a follow-up: only the SHA-256 of its token is kept. */
export class SampleFollowUpLink extends Model<InferAttributes<SampleFollowUpLink>, InferCreationAttributes<SampleFollowUpLink>> {
  declare id: CreationOptional<number>;
  declare followUpId: Fk;
  declare tokenHash: string;
  declare expiresAt: Date;
  declare createdAt: CreationOptional<Date>;

  declare followUp?: NonAttribute<SampleFollowUp>;
}

/** The diagnosis registered for a sample (one per sample; a second registration replaces it). */
export class CancerDiagnosis extends Model<InferAttributes<CancerDiagnosis>, InferCreationAttributes<CancerDiagnosis>> {
  declare id: CreationOptional<number>;
  declare sampleId: Fk;
  declare patientId: Fk;
  declare site: CancerSite;
  declare diagnosis: Nullable<string>;
  /** YYYY-MM-DD. */
  declare diagnosedOn: string;
  declare stage: Nullable<CancerStage>;
  declare gleasonPrimary: Nullable<number>;
  declare gleasonSecondary: Nullable<number>;
  /** numeric: read back as a string. */
  declare psa: Nullable<string | number>;
  declare plannedTreatment: Nullable<RadiationTreatment>;
  declare recordedByUserId: Fk;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare sample?: NonAttribute<Sample>;
  declare patient?: NonAttribute<Patient>;
}

export interface FollowUpModels {
  SampleFollowUpLink: typeof SampleFollowUpLink;
  CancerDiagnosis: typeof CancerDiagnosis;
}

export function initFollowUps(sequelize: Sequelize): FollowUpModels {
  const SampleFollowUpLinkM = subclass(SampleFollowUpLink);
  SampleFollowUpLinkM.init(
    {
      id: id(),
      followUpId: fk(),
      tokenHash: { type: DataTypes.TEXT, allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      createdAt: timestamps().createdAt,
    },
    { sequelize, modelName: 'SampleFollowUpLink', tableName: 'sample_follow_up_links', updatedAt: false },
  );

  const CancerDiagnosisM = subclass(CancerDiagnosis);
  CancerDiagnosisM.init(
    {
      id: id(),
      sampleId: fk(),
      patientId: fk(),
      site: { type: DataTypes.TEXT, allowNull: false },
      diagnosis: { type: DataTypes.TEXT },
      diagnosedOn: { type: DataTypes.DATEONLY, allowNull: false },
      stage: { type: DataTypes.TEXT },
      gleasonPrimary: { type: DataTypes.INTEGER },
      gleasonSecondary: { type: DataTypes.INTEGER },
      psa: { type: DataTypes.DECIMAL(7, 2) },
      plannedTreatment: { type: DataTypes.TEXT },
      recordedByUserId: fk(),
      ...timestamps(),
    },
    { sequelize, modelName: 'CancerDiagnosis', tableName: 'cancer_diagnoses' },
  );

  return { SampleFollowUpLink: SampleFollowUpLinkM, CancerDiagnosis: CancerDiagnosisM };
}

export function associateFollowUps(m: Models): void {
  m.SampleFollowUpLink.belongsTo(m.SampleFollowUp, { foreignKey: 'followUpId', as: 'followUp' });
  m.CancerDiagnosis.belongsTo(m.Sample, { foreignKey: 'sampleId', as: 'sample' });
  m.CancerDiagnosis.belongsTo(m.Patient, { foreignKey: 'patientId', as: 'patient' });
}

/** DNA extractions of the Lab Toolbox: one imported extraction of a sample, its result version and the decision on a flagged one. */
import type { ExtractionOutcome } from '@platform/domain';
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type NonAttribute,
  type Sequelize,
} from 'sequelize';
import type { Job } from './jobs';
import { dbDefault, fk, id, nullableFk, subclass, timestamps, type Fk, type Nullable, type NullableFk } from './model-kit';
import type { Models } from './models';
import type { User } from './people';
import type { Sample, TestResult } from './samples';

export class DnaExtraction extends Model<InferAttributes<DnaExtraction>, InferCreationAttributes<DnaExtraction>> {
  declare id: CreationOptional<number>;
  declare sampleId: Fk;
  /** As the file named the sample: its id, or its id + .reex for a re-extraction. */
  declare label: string;
  /** The DNA Extraction result version the import wrote (In Review until released by another lab user). */
  declare testResultId: Fk;
  declare importJobId: Fk;
  /** The spreadsheet row it came from (the header is row 1). */
  declare fileRow: number;
  /** numeric columns read back as strings (exactly as stored). */
  declare concentrationNgPerUl: string | number;
  declare a260280: string | number;
  declare volumeUl: string | number;
  declare plate: string;
  declare well: string;
  /** Why it is outside the acceptance range; empty when within. */
  declare flags: CreationOptional<string[]>;
  declare outcome: Nullable<ExtractionOutcome>;
  /** `<sampleId>.reex` once the sample is sent to re-extraction. */
  declare reextractionId: Nullable<string>;
  declare decidedByUserId: NullableFk;
  declare decidedAt: Nullable<Date>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare sample?: NonAttribute<Sample>;
  declare testResult?: NonAttribute<TestResult>;
  declare importJob?: NonAttribute<Job>;
  declare decidedBy?: NonAttribute<User | null>;
}

export interface ExtractionModels {
  DnaExtraction: typeof DnaExtraction;
}

export function initExtractions(sequelize: Sequelize): ExtractionModels {
  const DnaExtractionM = subclass(DnaExtraction);
  DnaExtractionM.init(
    {
      id: id(),
      sampleId: fk(),
      label: { type: DataTypes.TEXT, allowNull: false },
      testResultId: fk(),
      importJobId: fk(),
      fileRow: { type: DataTypes.INTEGER, allowNull: false },
      concentrationNgPerUl: { type: DataTypes.DECIMAL, allowNull: false },
      a260280: { type: DataTypes.DECIMAL, allowNull: false, field: 'a260_280' },
      volumeUl: { type: DataTypes.DECIMAL, allowNull: false },
      plate: { type: DataTypes.TEXT, allowNull: false },
      well: { type: DataTypes.TEXT, allowNull: false },
      flags: dbDefault(DataTypes.JSONB),
      outcome: { type: DataTypes.TEXT },
      reextractionId: { type: DataTypes.TEXT },
      decidedByUserId: nullableFk(),
      decidedAt: { type: DataTypes.DATE },
      ...timestamps(),
    },
    { sequelize, modelName: 'DnaExtraction', tableName: 'dna_extractions' },
  );
  return { DnaExtraction: DnaExtractionM };
}

export function associateExtractions(m: Models): void {
  m.DnaExtraction.belongsTo(m.Sample, { foreignKey: 'sampleId', as: 'sample' });
  m.DnaExtraction.belongsTo(m.TestResult, { foreignKey: 'testResultId', as: 'testResult' });
  m.DnaExtraction.belongsTo(m.Job, { foreignKey: 'importJobId', as: 'importJob' });
  m.DnaExtraction.belongsTo(m.User, { foreignKey: 'decidedByUserId', as: 'decidedBy' });
}

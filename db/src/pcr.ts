/** PCR plates of the Lab Toolbox: a plate (one run of the PCR instrument) and its wells (samples and controls). */
import type { CovidPcrResult, PcrControlKind, PcrPlateStatus } from '@platform/domain';
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type NonAttribute,
  type Sequelize,
} from 'sequelize';
import { dbDefault, fk, id, nullableFk, subclass, timestamps, type Fk, type Nullable, type NullableFk } from './model-kit';
import type { Models } from './models';
import type { User } from './people';
import type { Sample, Test, TestResult } from './samples';

export class PcrPlate extends Model<InferAttributes<PcrPlate>, InferCreationAttributes<PcrPlate>> {
  declare id: CreationOptional<number>;
  declare name: string;
  /** Registered, then Resulted once the run's results are entered. */
  declare status: CreationOptional<PcrPlateStatus>;
  declare createdByUserId: Fk;
  declare resultedByUserId: NullableFk;
  declare resultedAt: Nullable<Date>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare createdBy?: NonAttribute<User>;
  declare resultedBy?: NonAttribute<User | null>;
  declare wells?: NonAttribute<PcrPlateWell[]>;
}

/** One well: a sample (with the test it runs for) or a control (database CHECK: exactly one). */
export class PcrPlateWell extends Model<InferAttributes<PcrPlateWell>, InferCreationAttributes<PcrPlateWell>> {
  declare id: CreationOptional<number>;
  declare plateId: Fk;
  /** A1 … H12 */
  declare well: string;
  /** What was scanned into the well: a barcode, a re-extraction (barcode.reex) or a control name. */
  declare label: string;
  declare sampleId: NullableFk;
  declare testId: NullableFk;
  declare controlKind: Nullable<PcrControlKind>;
  declare result: Nullable<CovidPcrResult>;
  /** The result version written for a sample well. */
  declare testResultId: NullableFk;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare plate?: NonAttribute<PcrPlate>;
  declare sample?: NonAttribute<Sample | null>;
  declare test?: NonAttribute<Test | null>;
  declare testResult?: NonAttribute<TestResult | null>;
}

export interface PcrModels {
  PcrPlate: typeof PcrPlate;
  PcrPlateWell: typeof PcrPlateWell;
}

export function initPcr(sequelize: Sequelize): PcrModels {
  const PcrPlateM = subclass(PcrPlate);
  PcrPlateM.init(
    {
      id: id(),
      name: { type: DataTypes.TEXT, allowNull: false },
      status: dbDefault(DataTypes.TEXT),
      createdByUserId: fk(),
      resultedByUserId: nullableFk(),
      resultedAt: { type: DataTypes.DATE },
      ...timestamps(),
    },
    { sequelize, modelName: 'PcrPlate', tableName: 'pcr_plates' },
  );

  const PcrPlateWellM = subclass(PcrPlateWell);
  PcrPlateWellM.init(
    {
      id: id(),
      plateId: fk(),
      well: { type: DataTypes.TEXT, allowNull: false },
      label: { type: DataTypes.TEXT, allowNull: false },
      sampleId: nullableFk(),
      testId: nullableFk(),
      controlKind: { type: DataTypes.TEXT },
      result: { type: DataTypes.TEXT },
      testResultId: nullableFk(),
      ...timestamps(),
    },
    { sequelize, modelName: 'PcrPlateWell', tableName: 'pcr_plate_wells' },
  );

  return { PcrPlate: PcrPlateM, PcrPlateWell: PcrPlateWellM };
}

export function associatePcr(m: Models): void {
  m.PcrPlate.belongsTo(m.User, { foreignKey: 'createdByUserId', as: 'createdBy' });
  m.PcrPlate.belongsTo(m.User, { foreignKey: 'resultedByUserId', as: 'resultedBy' });
  m.PcrPlate.hasMany(m.PcrPlateWell, { foreignKey: 'plateId', as: 'wells' });
  m.PcrPlateWell.belongsTo(m.PcrPlate, { foreignKey: 'plateId', as: 'plate' });
  m.PcrPlateWell.belongsTo(m.Sample, { foreignKey: 'sampleId', as: 'sample' });
  m.PcrPlateWell.belongsTo(m.Test, { foreignKey: 'testId', as: 'test' });
  m.PcrPlateWell.belongsTo(m.TestResult, { foreignKey: 'testResultId', as: 'testResult' });
}

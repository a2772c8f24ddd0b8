/** Storage plates of the Lab Toolbox: a plate and what its wells hold (kept, with who emptied them, when and why). */
import type { StorageContentKind, StorageRemoval } from '@platform/domain';
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type NonAttribute,
  type Sequelize,
} from 'sequelize';
import { fk, id, nullableFk, subclass, timestamps, type Fk, type Nullable, type NullableFk } from './model-kit';
import type { Models } from './models';
import type { User } from './people';
import type { Sample } from './samples';

export class StoragePlate extends Model<InferAttributes<StoragePlate>, InferCreationAttributes<StoragePlate>> {
  declare id: CreationOptional<number>;
  /** The plate's barcode, unique. */
  declare name: string;
  declare createdByUserId: Fk;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare createdBy?: NonAttribute<User>;
  declare wells?: NonAttribute<StoragePlateWell[]>;
}

/**
 * What a well holds, placed by someone at created_at; removed_at is set when it is emptied. The
 * database keeps one current row per well and one per sample (and re-extraction).
 */
export class StoragePlateWell extends Model<InferAttributes<StoragePlateWell>, InferCreationAttributes<StoragePlateWell>> {
  declare id: CreationOptional<number>;
  declare plateId: Fk;
  /** A1 … H12 */
  declare well: string;
  /** What was scanned or imported: a sample id, sample id.reex, or a control's name. */
  declare label: string;
  declare contentKind: StorageContentKind;
  declare sampleId: NullableFk;
  declare placedByUserId: Fk;
  declare removedAt: Nullable<Date>;
  declare removedByUserId: NullableFk;
  declare removal: Nullable<StorageRemoval>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare plate?: NonAttribute<StoragePlate>;
  declare sample?: NonAttribute<Sample | null>;
  declare placedBy?: NonAttribute<User>;
  declare removedBy?: NonAttribute<User | null>;
}

export interface StorageModels {
  StoragePlate: typeof StoragePlate;
  StoragePlateWell: typeof StoragePlateWell;
}

export function initStorage(sequelize: Sequelize): StorageModels {
  const StoragePlateM = subclass(StoragePlate);
  StoragePlateM.init(
    {
      id: id(),
      name: { type: DataTypes.TEXT, allowNull: false },
      createdByUserId: fk(),
      ...timestamps(),
    },
    { sequelize, modelName: 'StoragePlate', tableName: 'storage_plates' },
  );

  const StoragePlateWellM = subclass(StoragePlateWell);
  StoragePlateWellM.init(
    {
      id: id(),
      plateId: fk(),
      well: { type: DataTypes.TEXT, allowNull: false },
      label: { type: DataTypes.TEXT, allowNull: false },
      contentKind: { type: DataTypes.TEXT, allowNull: false },
      sampleId: nullableFk(),
      placedByUserId: fk(),
      removedAt: { type: DataTypes.DATE },
      removedByUserId: nullableFk(),
      removal: { type: DataTypes.TEXT },
      ...timestamps(),
    },
    { sequelize, modelName: 'StoragePlateWell', tableName: 'storage_plate_wells' },
  );

  return { StoragePlate: StoragePlateM, StoragePlateWell: StoragePlateWellM };
}

export function associateStorage(m: Models): void {
  m.StoragePlate.belongsTo(m.User, { foreignKey: 'createdByUserId', as: 'createdBy' });
  m.StoragePlate.hasMany(m.StoragePlateWell, { foreignKey: 'plateId', as: 'wells' });
  m.StoragePlateWell.belongsTo(m.StoragePlate, { foreignKey: 'plateId', as: 'plate' });
  m.StoragePlateWell.belongsTo(m.Sample, { foreignKey: 'sampleId', as: 'sample' });
  m.StoragePlateWell.belongsTo(m.User, { foreignKey: 'placedByUserId', as: 'placedBy' });
  m.StoragePlateWell.belongsTo(m.User, { foreignKey: 'removedByUserId', as: 'removedBy' });
}

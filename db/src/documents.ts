/** Stored files (bytes in the database) and the versioned documents of a sample. */
import type { DocumentType } from '@platform/domain';
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
import type { User } from './people';
import type { Sample } from './samples';
import type { StoredFileKind } from './values';

/** A file kept in the database (table `files`). */
export class StoredFile extends Model<InferAttributes<StoredFile>, InferCreationAttributes<StoredFile>> {
  declare id: CreationOptional<number>;
  declare kind: StoredFileKind;
  declare name: string;
  declare contentType: string;
  declare sizeBytes: number;
  /** lower-case hex sha256 of content. */
  declare sha256: string;
  declare content: Buffer;
  declare uploadedByUserId: NullableFk;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare uploadedBy?: NonAttribute<User | null>;
  declare documents?: NonAttribute<SampleDocument[]>;
}

/** A sample's document (table `documents`): a lab report or requisition form, one row per version. */
export class SampleDocument extends Model<InferAttributes<SampleDocument>, InferCreationAttributes<SampleDocument>> {
  declare id: CreationOptional<number>;
  declare type: DocumentType;
  declare sampleId: Fk;
  declare fileId: Fk;
  declare version: CreationOptional<number>;
  /** A re-issued report after a result correction. */
  declare corrected: CreationOptional<boolean>;
  declare supersededAt: Nullable<Date>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare sample?: NonAttribute<Sample>;
  declare file?: NonAttribute<StoredFile>;
}

export function initDocuments(sequelize: Sequelize) {
  const StoredFileM = subclass(StoredFile);
  StoredFileM.init(
    {
      id: id(),
      kind: { type: DataTypes.TEXT, allowNull: false },
      name: { type: DataTypes.TEXT, allowNull: false },
      contentType: { type: DataTypes.TEXT, allowNull: false },
      sizeBytes: { type: DataTypes.BIGINT, allowNull: false },
      sha256: { type: DataTypes.TEXT, allowNull: false },
      content: { type: DataTypes.BLOB, allowNull: false },
      uploadedByUserId: nullableFk(),
      ...timestamps(),
    },
    {
      sequelize,
      modelName: 'StoredFile',
      tableName: 'files',
      // The bytes are read only when asked for: Model.scope('withContent').findByPk(id).
      defaultScope: { attributes: { exclude: ['content'] } },
      scopes: { withContent: { attributes: { include: ['content'] } } },
    },
  );

  const SampleDocumentM = subclass(SampleDocument);
  SampleDocumentM.init(
    {
      id: id(),
      type: { type: DataTypes.TEXT, allowNull: false },
      sampleId: fk(),
      fileId: fk(),
      version: dbDefault(DataTypes.INTEGER),
      corrected: dbDefault(DataTypes.BOOLEAN),
      supersededAt: { type: DataTypes.DATE },
      ...timestamps(),
    },
    { sequelize, modelName: 'SampleDocument', tableName: 'documents' },
  );

  return { StoredFile: StoredFileM, SampleDocument: SampleDocumentM };
}

/**
 * Research projects the lab runs with the accounts taking part: the protocol, the consent document,
 * the tests it orders, its questionnaire in versions (a draft, then published versions that never
 * change), and whether the lab closed it.
 */
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type NonAttribute,
  type Sequelize,
} from 'sequelize';
import { dbDefault, fk, id, nullableFk, subclass, timestamps, type Fk, type JsonObject, type Nullable, type NullableFk } from './model-kit';
import type { Models } from './models';
import type { Account, User } from './people';
import type { StudyResponse } from './samples';

export class ResearchProject extends Model<InferAttributes<ResearchProject>, InferCreationAttributes<ResearchProject>> {
  declare id: CreationOptional<number>;
  declare name: string;
  /** Where the protocol is (a path of the SPA's documents or a URL). */
  declare protocol: Nullable<string>;
  declare consentDocument: Nullable<string>;
  /** Catalogue test names the project uses. */
  declare tests: string[];
  /** When the lab closed the project: no new orders; its data kept. */
  declare closedAt: Nullable<Date>;
  declare closedByUserId: NullableFk;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare accounts?: NonAttribute<Account[]>;
  declare responses?: NonAttribute<StudyResponse[]>;
  declare versions?: NonAttribute<QuestionnaireVersion[]>;
  declare closedBy?: NonAttribute<User | null>;
}

/** An account taking part in a research project: its providers order for the project and fill its study responses. */
export class ResearchProjectAccount extends Model<InferAttributes<ResearchProjectAccount>, InferCreationAttributes<ResearchProjectAccount>> {
  declare researchProjectId: Fk;
  declare accountId: Fk;
  declare createdAt: CreationOptional<Date>;
}

/** One version of a project's questionnaire: a draft while publishedAt is null, then never changed (a trigger refuses it). */
export class QuestionnaireVersion extends Model<InferAttributes<QuestionnaireVersion>, InferCreationAttributes<QuestionnaireVersion>> {
  declare id: CreationOptional<number>;
  declare researchProjectId: Fk;
  declare version: number;
  /** A QuestionnaireDefinition of the domain. */
  declare definition: JsonObject;
  declare publishedAt: Nullable<Date>;
  declare publishedByUserId: NullableFk;
  declare createdByUserId: NullableFk;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare publishedBy?: NonAttribute<User | null>;
}

export interface ResearchModels {
  ResearchProject: typeof ResearchProject;
  ResearchProjectAccount: typeof ResearchProjectAccount;
  QuestionnaireVersion: typeof QuestionnaireVersion;
}

export function initResearch(sequelize: Sequelize): ResearchModels {
  const ResearchProjectM = subclass(ResearchProject);
  ResearchProjectM.init(
    {
      id: id(),
      name: { type: DataTypes.TEXT, allowNull: false },
      protocol: { type: DataTypes.TEXT },
      consentDocument: { type: DataTypes.TEXT },
      tests: { type: DataTypes.ARRAY(DataTypes.TEXT), allowNull: false },
      closedAt: { type: DataTypes.DATE },
      closedByUserId: nullableFk(),
      ...timestamps(),
    },
    { sequelize, modelName: 'ResearchProject', tableName: 'research_projects' },
  );
  const ResearchProjectAccountM = subclass(ResearchProjectAccount);
  ResearchProjectAccountM.init(
    {
      researchProjectId: { ...fk(), primaryKey: true },
      accountId: { ...fk(), primaryKey: true },
      createdAt: dbDefault(DataTypes.DATE),
    },
    { sequelize, modelName: 'ResearchProjectAccount', tableName: 'research_project_accounts', timestamps: false },
  );
  const QuestionnaireVersionM = subclass(QuestionnaireVersion);
  QuestionnaireVersionM.init(
    {
      id: id(),
      researchProjectId: fk(),
      version: { type: DataTypes.INTEGER, allowNull: false },
      definition: { type: DataTypes.JSONB, allowNull: false },
      publishedAt: { type: DataTypes.DATE },
      publishedByUserId: nullableFk(),
      createdByUserId: nullableFk(),
      ...timestamps(),
    },
    { sequelize, modelName: 'QuestionnaireVersion', tableName: 'questionnaire_versions' },
  );
  return { ResearchProject: ResearchProjectM, ResearchProjectAccount: ResearchProjectAccountM, QuestionnaireVersion: QuestionnaireVersionM };
}

export function associateResearch(m: Models): void {
  m.Account.belongsToMany(m.ResearchProject, { through: m.ResearchProjectAccount, foreignKey: 'accountId', otherKey: 'researchProjectId', as: 'researchProjects' });
  m.ResearchProject.belongsToMany(m.Account, { through: m.ResearchProjectAccount, foreignKey: 'researchProjectId', otherKey: 'accountId', as: 'accounts' });
  m.ResearchProject.hasMany(m.ResearchProjectAccount, { foreignKey: 'researchProjectId', as: 'participations' });
  m.ResearchProject.hasMany(m.QuestionnaireVersion, { foreignKey: 'researchProjectId', as: 'versions' });
  m.ResearchProject.belongsTo(m.User, { foreignKey: 'closedByUserId', as: 'closedBy' });
  m.QuestionnaireVersion.belongsTo(m.User, { foreignKey: 'publishedByUserId', as: 'publishedBy' });
  m.StudyResponse.belongsTo(m.QuestionnaireVersion, { foreignKey: 'questionnaireVersionId', as: 'questionnaireVersion' });
  m.ResearchProject.hasMany(m.StudyResponse, { foreignKey: 'researchProjectId', as: 'responses' });
  m.StudyResponse.belongsTo(m.ResearchProject, { foreignKey: 'researchProjectId', as: 'project' });
  m.StudyResponse.belongsTo(m.Patient, { foreignKey: 'patientId', as: 'patient' });
  m.StudyResponse.belongsTo(m.User, { foreignKey: 'updatedByUserId', as: 'updatedBy' });
  m.Patient.hasMany(m.StudyResponse, { foreignKey: 'patientId', as: 'studyResponses' });
}

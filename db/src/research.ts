/** Research projects of an account: the protocol, the consent document, the tests it uses and the questionnaire of its study responses. */
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
import type { Account } from './people';
import type { StudyResponse } from './samples';

export class ResearchProject extends Model<InferAttributes<ResearchProject>, InferCreationAttributes<ResearchProject>> {
  declare id: CreationOptional<number>;
  declare accountId: Fk;
  declare name: string;
  /** Where the protocol is (a path of the SPA's documents or a URL). */
  declare protocol: Nullable<string>;
  declare consentDocument: Nullable<string>;
  /** Catalogue test names the project uses. */
  declare tests: string[];
  /** The id of the domain questionnaire its study responses answer. */
  declare questionnaire: string;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare account?: NonAttribute<Account>;
  declare responses?: NonAttribute<StudyResponse[]>;
}

export interface ResearchModels {
  ResearchProject: typeof ResearchProject;
}

export function initResearch(sequelize: Sequelize): ResearchModels {
  const ResearchProjectM = subclass(ResearchProject);
  ResearchProjectM.init(
    {
      id: id(),
      accountId: fk(),
      name: { type: DataTypes.TEXT, allowNull: false },
      protocol: { type: DataTypes.TEXT },
      consentDocument: { type: DataTypes.TEXT },
      tests: { type: DataTypes.ARRAY(DataTypes.TEXT), allowNull: false },
      questionnaire: { type: DataTypes.TEXT, allowNull: false },
      ...timestamps(),
    },
    { sequelize, modelName: 'ResearchProject', tableName: 'research_projects' },
  );
  return { ResearchProject: ResearchProjectM };
}

export function associateResearch(m: Models): void {
  m.Account.hasMany(m.ResearchProject, { foreignKey: 'accountId', as: 'researchProjects' });
  m.ResearchProject.belongsTo(m.Account, { foreignKey: 'accountId', as: 'account' });
  m.ResearchProject.hasMany(m.StudyResponse, { foreignKey: 'researchProjectId', as: 'responses' });
  m.StudyResponse.belongsTo(m.ResearchProject, { foreignKey: 'researchProjectId', as: 'project' });
  m.StudyResponse.belongsTo(m.Patient, { foreignKey: 'patientId', as: 'patient' });
  m.StudyResponse.belongsTo(m.User, { foreignKey: 'updatedByUserId', as: 'updatedBy' });
  m.Patient.hasMany(m.StudyResponse, { foreignKey: 'patientId', as: 'studyResponses' });
}

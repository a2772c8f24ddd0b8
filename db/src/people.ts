/** People and accounts: users, accounts, departments, provider contacts, memberships, physicians, staff, technicians. */
import type { AccessStatus, AccountAddressKind, AccountInvitationStatus, AccountRole, AccountType, ProviderTitle, Specialty, TestLine, UserKind } from '@platform/domain';
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
import type { Order, Patient } from './patients';
import type { ResearchProject } from './research';

/** Everyone who signs in: admins, provider users and lab toolbox users (`kind`). */
export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: CreationOptional<number>;
  declare kind: UserKind;
  declare email: string;
  /** argon2id hash; null until the person sets a password (then they cannot sign in). */
  declare passwordHash: Nullable<string>;
  declare firstName: string;
  declare lastName: string;
  declare isActive: CreationOptional<boolean>;
  declare lastLoginAt: Nullable<Date>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare contact?: NonAttribute<Contact | null>;
  declare technician?: NonAttribute<Technician | null>;
}

export class Account extends Model<InferAttributes<Account>, InferCreationAttributes<Account>> {
  declare id: CreationOptional<number>;
  declare name: string;
  declare type: CreationOptional<AccountType>;
  declare eapPartner: CreationOptional<boolean>;
  declare international: CreationOptional<boolean>;
  declare clinicAccess: CreationOptional<boolean>;
  declare researchAccess: CreationOptional<boolean>;
  /** Patients ordering for themselves may name this account as their treating provider. */
  declare takesPatientOrders: CreationOptional<boolean>;
  /** Set by the account's Super Admin: its providers sign in with a second factor. */
  declare requireTwoFactor: CreationOptional<boolean>;
  declare phone: Nullable<string>;
  declare isActive: CreationOptional<boolean>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare addresses?: NonAttribute<AccountAddress[]>;
  declare departments?: NonAttribute<Department[]>;
  declare memberships?: NonAttribute<AccountMembership[]>;
  declare contacts?: NonAttribute<Contact[]>;
  declare physicians?: NonAttribute<Physician[]>;
  declare patients?: NonAttribute<Patient[]>;
  declare orders?: NonAttribute<Order[]>;
  declare researchProjects?: NonAttribute<ResearchProject[]>;
}

/** An account's shipping or billing address (at most one of each kind). */
export class AccountAddress extends Model<InferAttributes<AccountAddress>, InferCreationAttributes<AccountAddress>> {
  declare id: CreationOptional<number>;
  declare accountId: Fk;
  declare kind: AccountAddressKind;
  declare addressLine1: string;
  declare addressLine2: Nullable<string>;
  declare city: string;
  declare state: Nullable<string>;
  declare postalCode: string;
  declare country: CreationOptional<string>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare account?: NonAttribute<Account>;
}

/** Where an account's questions about one test line go (SPEC §9 support mailboxes). */
export class AccountSupportMailbox extends Model<InferAttributes<AccountSupportMailbox>, InferCreationAttributes<AccountSupportMailbox>> {
  declare id: CreationOptional<number>;
  declare accountId: Fk;
  declare testLine: TestLine;
  declare email: string;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class Department extends Model<InferAttributes<Department>, InferCreationAttributes<Department>> {
  declare id: CreationOptional<number>;
  declare accountId: Fk;
  declare name: string;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare account?: NonAttribute<Account>;
}

/** A provider person (physician, nurse, staff); signs in through `user` once access is approved. */
export class Contact extends Model<InferAttributes<Contact>, InferCreationAttributes<Contact>> {
  declare id: CreationOptional<number>;
  declare userId: NullableFk;
  declare firstName: string;
  declare lastName: string;
  declare email: string;
  declare phone: Nullable<string>;
  declare title: Nullable<ProviderTitle>;
  declare specialty: Nullable<Specialty>;
  declare npi: Nullable<string>;
  declare accessStatus: CreationOptional<AccessStatus>;
  /** The account name given at sign-up, before an admin places the contact in an account. */
  declare requestedAccountName: Nullable<string>;
  /** What the person wrote when asking for access. */
  declare requestNote: Nullable<string>;
  /** Why access was denied (told to the person). */
  declare decisionReason: Nullable<string>;
  declare decidedByUserId: NullableFk;
  declare decidedAt: Nullable<Date>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare user?: NonAttribute<User | null>;
  declare decidedBy?: NonAttribute<User | null>;
  declare memberships?: NonAttribute<AccountMembership[]>;
  declare accounts?: NonAttribute<Account[]>;
}

export class AccountMembership extends Model<InferAttributes<AccountMembership>, InferCreationAttributes<AccountMembership>> {
  declare id: CreationOptional<number>;
  declare accountId: Fk;
  declare contactId: Fk;
  declare role: AccountRole;
  declare isActive: CreationOptional<boolean>;
  /** Set when the access was removed (the row stays, inactive, so the account's super admin can give it back); null while it stands. */
  declare removedAt: Nullable<Date>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare account?: NonAttribute<Account>;
  declare contact?: NonAttribute<Contact>;
}

/** A Super Admin's invitation of a person to their account (accepted through the emailed link). */
export class AccountInvitation extends Model<InferAttributes<AccountInvitation>, InferCreationAttributes<AccountInvitation>> {
  declare id: CreationOptional<number>;
  declare accountId: Fk;
  declare email: string;
  declare firstName: string;
  declare lastName: string;
  declare phone: Nullable<string>;
  declare title: ProviderTitle;
  declare specialty: Nullable<Specialty>;
  declare npi: Nullable<string>;
  declare role: AccountRole;
  declare status: CreationOptional<AccountInvitationStatus>;
  /** sha256 of the token sent by email; the token itself is never stored. */
  declare tokenHash: string;
  declare invitedByUserId: NullableFk;
  declare expiresAt: Date;
  declare decidedAt: Nullable<Date>;
  /** The contact who accepted it. */
  declare contactId: NullableFk;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare account?: NonAttribute<Account>;
  declare invitedBy?: NonAttribute<User | null>;
}

/** A physician an order of the account can name (linked to a contact when the physician uses the portal). */
export class Physician extends Model<InferAttributes<Physician>, InferCreationAttributes<Physician>> {
  declare id: CreationOptional<number>;
  declare accountId: Fk;
  declare contactId: NullableFk;
  declare firstName: string;
  declare lastName: string;
  declare npi: Nullable<string>;
  declare specialty: Nullable<Specialty>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare account?: NonAttribute<Account>;
  declare contact?: NonAttribute<Contact | null>;
}

/** Support staff working for a physician within an account. */
export class ProviderStaffRelationship extends Model<
  InferAttributes<ProviderStaffRelationship>,
  InferCreationAttributes<ProviderStaffRelationship>
> {
  declare id: CreationOptional<number>;
  declare accountId: Fk;
  declare physicianContactId: Fk;
  declare staffContactId: Fk;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare account?: NonAttribute<Account>;
  declare physician?: NonAttribute<Contact>;
  declare staff?: NonAttribute<Contact>;
}

/** A LIMS technician (a lab person, linked to their lab user when they have one). */
export class Technician extends Model<InferAttributes<Technician>, InferCreationAttributes<Technician>> {
  declare id: CreationOptional<number>;
  declare userId: NullableFk;
  declare firstName: string;
  declare lastName: string;
  declare email: Nullable<string>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare user?: NonAttribute<User | null>;
}

export class PasswordResetToken extends Model<InferAttributes<PasswordResetToken>, InferCreationAttributes<PasswordResetToken>> {
  declare id: CreationOptional<number>;
  declare userId: Fk;
  declare tokenHash: string;
  declare expiresAt: Date;
  declare usedAt: Nullable<Date>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare user?: NonAttribute<User>;
}

export function initPeople(sequelize: Sequelize) {
  const UserM = subclass(User);
  UserM.init(
    {
      id: id(),
      kind: { type: DataTypes.TEXT, allowNull: false },
      email: { type: DataTypes.TEXT, allowNull: false },
      passwordHash: { type: DataTypes.TEXT },
      firstName: { type: DataTypes.TEXT, allowNull: false },
      lastName: { type: DataTypes.TEXT, allowNull: false },
      isActive: dbDefault(DataTypes.BOOLEAN),
      lastLoginAt: { type: DataTypes.DATE },
      ...timestamps(),
    },
    { sequelize, modelName: 'User', tableName: 'users' },
  );

  const AccountM = subclass(Account);
  AccountM.init(
    {
      id: id(),
      name: { type: DataTypes.TEXT, allowNull: false },
      type: dbDefault(DataTypes.TEXT),
      eapPartner: dbDefault(DataTypes.BOOLEAN),
      international: dbDefault(DataTypes.BOOLEAN),
      clinicAccess: dbDefault(DataTypes.BOOLEAN),
      researchAccess: dbDefault(DataTypes.BOOLEAN),
      takesPatientOrders: dbDefault(DataTypes.BOOLEAN),
      requireTwoFactor: dbDefault(DataTypes.BOOLEAN),
      phone: { type: DataTypes.TEXT },
      isActive: dbDefault(DataTypes.BOOLEAN),
      ...timestamps(),
    },
    { sequelize, modelName: 'Account', tableName: 'accounts' },
  );

  const AccountAddressM = subclass(AccountAddress);
  AccountAddressM.init(
    {
      id: id(),
      accountId: fk(),
      kind: { type: DataTypes.TEXT, allowNull: false },
      addressLine1: { type: DataTypes.TEXT, allowNull: false },
      addressLine2: { type: DataTypes.TEXT },
      city: { type: DataTypes.TEXT, allowNull: false },
      state: { type: DataTypes.TEXT },
      postalCode: { type: DataTypes.TEXT, allowNull: false },
      country: dbDefault(DataTypes.TEXT),
      ...timestamps(),
    },
    { sequelize, modelName: 'AccountAddress', tableName: 'account_addresses' },
  );

  const AccountSupportMailboxM = subclass(AccountSupportMailbox);
  AccountSupportMailboxM.init(
    { id: id(), accountId: fk(), testLine: { type: DataTypes.TEXT, allowNull: false }, email: { type: DataTypes.TEXT, allowNull: false }, ...timestamps() },
    { sequelize, modelName: 'AccountSupportMailbox', tableName: 'account_support_mailboxes' },
  );

  const DepartmentM = subclass(Department);
  DepartmentM.init(
    { id: id(), accountId: fk(), name: { type: DataTypes.TEXT, allowNull: false }, ...timestamps() },
    { sequelize, modelName: 'Department', tableName: 'departments' },
  );

  const ContactM = subclass(Contact);
  ContactM.init(
    {
      id: id(),
      userId: nullableFk(),
      firstName: { type: DataTypes.TEXT, allowNull: false },
      lastName: { type: DataTypes.TEXT, allowNull: false },
      email: { type: DataTypes.TEXT, allowNull: false },
      phone: { type: DataTypes.TEXT },
      title: { type: DataTypes.TEXT },
      specialty: { type: DataTypes.TEXT },
      npi: { type: DataTypes.TEXT },
      accessStatus: dbDefault(DataTypes.TEXT),
      requestedAccountName: { type: DataTypes.TEXT },
      requestNote: { type: DataTypes.TEXT },
      decisionReason: { type: DataTypes.TEXT },
      decidedByUserId: nullableFk(),
      decidedAt: { type: DataTypes.DATE },
      ...timestamps(),
    },
    { sequelize, modelName: 'Contact', tableName: 'contacts' },
  );

  const AccountMembershipM = subclass(AccountMembership);
  AccountMembershipM.init(
    {
      id: id(),
      accountId: fk(),
      contactId: fk(),
      role: { type: DataTypes.TEXT, allowNull: false },
      isActive: dbDefault(DataTypes.BOOLEAN),
      removedAt: { type: DataTypes.DATE },
      ...timestamps(),
    },
    { sequelize, modelName: 'AccountMembership', tableName: 'account_memberships' },
  );

  const AccountInvitationM = subclass(AccountInvitation);
  AccountInvitationM.init(
    {
      id: id(),
      accountId: fk(),
      email: { type: DataTypes.TEXT, allowNull: false },
      firstName: { type: DataTypes.TEXT, allowNull: false },
      lastName: { type: DataTypes.TEXT, allowNull: false },
      phone: { type: DataTypes.TEXT },
      title: { type: DataTypes.TEXT, allowNull: false },
      specialty: { type: DataTypes.TEXT },
      npi: { type: DataTypes.TEXT },
      role: { type: DataTypes.TEXT, allowNull: false },
      status: dbDefault(DataTypes.TEXT),
      tokenHash: { type: DataTypes.TEXT, allowNull: false },
      invitedByUserId: nullableFk(),
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      decidedAt: { type: DataTypes.DATE },
      contactId: nullableFk(),
      ...timestamps(),
    },
    { sequelize, modelName: 'AccountInvitation', tableName: 'account_invitations' },
  );

  const PhysicianM = subclass(Physician);
  PhysicianM.init(
    {
      id: id(),
      accountId: fk(),
      contactId: nullableFk(),
      firstName: { type: DataTypes.TEXT, allowNull: false },
      lastName: { type: DataTypes.TEXT, allowNull: false },
      npi: { type: DataTypes.TEXT },
      specialty: { type: DataTypes.TEXT },
      ...timestamps(),
    },
    { sequelize, modelName: 'Physician', tableName: 'physicians' },
  );

  const ProviderStaffRelationshipM = subclass(ProviderStaffRelationship);
  ProviderStaffRelationshipM.init(
    { id: id(), accountId: fk(), physicianContactId: fk(), staffContactId: fk(), ...timestamps() },
    { sequelize, modelName: 'ProviderStaffRelationship', tableName: 'provider_staff_relationships' },
  );

  const TechnicianM = subclass(Technician);
  TechnicianM.init(
    {
      id: id(),
      userId: nullableFk(),
      firstName: { type: DataTypes.TEXT, allowNull: false },
      lastName: { type: DataTypes.TEXT, allowNull: false },
      email: { type: DataTypes.TEXT },
      ...timestamps(),
    },
    { sequelize, modelName: 'Technician', tableName: 'technicians' },
  );

  const PasswordResetTokenM = subclass(PasswordResetToken);
  PasswordResetTokenM.init(
    {
      id: id(),
      userId: fk(),
      tokenHash: { type: DataTypes.TEXT, allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      usedAt: { type: DataTypes.DATE },
      ...timestamps(),
    },
    { sequelize, modelName: 'PasswordResetToken', tableName: 'password_reset_tokens' },
  );

  return {
    User: UserM,
    Account: AccountM,
    AccountAddress: AccountAddressM,
    AccountSupportMailbox: AccountSupportMailboxM,
    Department: DepartmentM,
    Contact: ContactM,
    AccountMembership: AccountMembershipM,
    AccountInvitation: AccountInvitationM,
    Physician: PhysicianM,
    ProviderStaffRelationship: ProviderStaffRelationshipM,
    Technician: TechnicianM,
    PasswordResetToken: PasswordResetTokenM,
  };
}

/** Shared pieces of the model files. */
import type { CreationOptional, ForeignKey, Model, ModelStatic } from 'sequelize';
import { DataTypes } from 'sequelize';

/** A NOT NULL foreign key (required when creating). */
export type Fk = ForeignKey<number>;
/** A nullable foreign key (optional when creating). */
export type NullableFk = CreationOptional<ForeignKey<number | null>>;
/** A nullable column (optional when creating). */
export type Nullable<T> = CreationOptional<T | null>;
/** A jsonb object. */
export type JsonObject = Record<string, unknown>;

/**
 * Sequelize binds a model class to one Sequelize instance (`Model.init`). So that two `connect()`
 * calls in one process (two databases, a test and the app) do not steal each other's models, each
 * connection initialises its own subclass of the exported class: `instanceof` and the types still
 * hold, but queries go through `db.models.X`, never through the imported class itself.
 */
export function subclass<C extends ModelStatic<Model>>(base: C): C {
  const Base = base as unknown as new (...args: never[]) => Model;
  const Sub = class extends Base {};
  Object.defineProperty(Sub, 'name', { value: base.name });
  return Sub as unknown as C;
}

// The column builders below return a fresh object each call: Sequelize writes into the attribute
// objects it is given (field, Model, …), so one object must never serve two attributes.

/** The primary key of every table: `id bigserial` (read back as a number, see connect()). */
export function id() {
  return { type: DataTypes.BIGINT, autoIncrement: true, primaryKey: true, allowNull: false };
}

/** A NOT NULL bigint foreign key column. */
export function fk() {
  return { type: DataTypes.BIGINT, allowNull: false };
}
/** A nullable bigint foreign key column. */
export function nullableFk() {
  return { type: DataTypes.BIGINT, allowNull: true };
}

/** created_at and updated_at. */
export function timestamps() {
  return {
    createdAt: { type: DataTypes.DATE, allowNull: false },
    updatedAt: { type: DataTypes.DATE, allowNull: false },
  };
}

/**
 * A NOT NULL column with a database default: the model leaves it to the database when it is not
 * given (declare it `CreationOptional`), and reads the stored value back (INSERT … RETURNING).
 */
export function dbDefault<T>(type: T): { type: T } {
  return { type };
}

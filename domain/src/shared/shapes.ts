/**
 * Answer shapes: what an endpoint answers, written once as a value that is both the TypeScript type
 * (`type X = Infer<typeof X>`) the server and the SPA compile against and the JSON Schema (2020-12,
 * OpenAPI 3.1's dialect) the API's OpenAPI document publishes and the tests check real answers
 * with. Request schemas stay joi (they convert and validate input); an answer needs no conversion,
 * only a description that cannot drift from the type.
 *
 * Objects are closed (additionalProperties: false): a field an answer carries without declaring it
 * (a patient's detail leaking into a list) fails the drift test instead of passing unnoticed.
 * Every builder is marked free of side effects, so the SPA's bundle drops the shapes it never reads.
 */

/** A JSON Schema object. */
export type JsonSchema = { [keyword: string]: unknown };

declare const TYPE: unique symbol;

/** A schema that carries, for the compiler only, the type of the values it describes. */
export interface Shape<T> {
  readonly schema: JsonSchema;
  readonly [TYPE]?: T;
}

/** The type a shape describes. */
export type Infer<S> = S extends Shape<infer T> ? T : never;

/** A property that may be absent (`key?: T`), as opposed to present and null. */
export interface OptionalShape<T> extends Shape<T> {
  readonly optional: true;
}

type Props = Record<string, Shape<unknown>>;
type OptionalKeys<P> = { [K in keyof P]: P[K] extends { optional: true } ? K : never }[keyof P];
type Simplify<T> = { [K in keyof T]: T[K] } & {};
export type ObjectOf<P> = Simplify<
  { -readonly [K in Exclude<keyof P, OptionalKeys<P>>]: Infer<P[K]> } & { -readonly [K in OptionalKeys<P>]?: Infer<P[K]> }
>;

/** An object shape keeps its properties, so that another can extend or pick from it. */
export interface ObjectShape<P> extends Shape<ObjectOf<P>> {
  readonly props: P;
}

/* @__NO_SIDE_EFFECTS__ */
function shape<T>(schema: JsonSchema): Shape<T> {
  return { schema };
}

export const string = shape<string>({ type: 'string' });
export const integer = shape<number>({ type: 'integer' });
export const number = shape<number>({ type: 'number' });
export const boolean = shape<boolean>({ type: 'boolean' });
/** Any JSON value (the OpenAPI document itself is one object of them). */
export const unknown = shape<unknown>({});

/* @__NO_SIDE_EFFECTS__ */
export function nullable<T>(inner: Shape<T>): Shape<T | null> {
  return shape({ anyOf: [inner.schema, { type: 'null' }] });
}

/* @__NO_SIDE_EFFECTS__ */
export function optional<T>(inner: Shape<T>): OptionalShape<T> {
  return { schema: inner.schema, optional: true };
}

/* @__NO_SIDE_EFFECTS__ */
export function array<T>(items: Shape<T>): Shape<T[]> {
  return shape({ type: 'array', items: items.schema });
}

/** One of an enumeration's values: pass the domain's own list (SAMPLE_STATUSES…), never a copy. */
/* @__NO_SIDE_EFFECTS__ */
export function oneOf<const V extends string | number | boolean>(values: readonly V[]): Shape<V> {
  return shape({ enum: [...values] });
}

/* @__NO_SIDE_EFFECTS__ */
export function literal<const V extends string | number | boolean>(value: V): Shape<V> {
  return shape({ const: value });
}

/** Any of several shapes. */
/* @__NO_SIDE_EFFECTS__ */
export function union<S extends Shape<unknown>[]>(...shapes: S): Shape<Infer<S[number]>> {
  return shape({ anyOf: shapes.map((s) => s.schema) });
}

/* @__NO_SIDE_EFFECTS__ */
export function object<P extends Props>(props: P): ObjectShape<P> {
  const properties = Object.fromEntries(Object.entries(props).map(([key, value]) => [key, value.schema]));
  const required = Object.keys(props).filter((key) => !(props[key] as Partial<OptionalShape<unknown>>).optional);
  return { props, schema: { type: 'object', properties, required, additionalProperties: false } };
}

/** An object with every key of an enumeration (`Record<JobStatus, number>`). */
/* @__NO_SIDE_EFFECTS__ */
export function record<K extends string, T>(keys: readonly K[], value: Shape<T>): Shape<Record<K, T>> {
  return object(Object.fromEntries(keys.map((key) => [key, value]))) as unknown as Shape<Record<K, T>>;
}

/** An object keyed by any string (`Record<string, T>`). */
/* @__NO_SIDE_EFFECTS__ */
export function dictionary<T>(value: Shape<T>): Shape<Record<string, T>> {
  return shape({ type: 'object', additionalProperties: value.schema });
}

/** `interface B extends A { … }`: A's properties, then more (a property named again replaces A's). */
/* @__NO_SIDE_EFFECTS__ */
export function extend<P extends Props, Q extends Props>(base: ObjectShape<P>, more: Q): ObjectShape<Omit<P, keyof Q> & Q> {
  return object({ ...base.props, ...more } as Props) as unknown as ObjectShape<Omit<P, keyof Q> & Q>;
}

/** `Pick<A, 'x' | 'y'>` */
/* @__NO_SIDE_EFFECTS__ */
export function pick<P extends Props, const K extends keyof P & string>(base: ObjectShape<P>, keys: readonly K[]): ObjectShape<Pick<P, K>> {
  return object(Object.fromEntries(keys.map((key) => [key, base.props[key]])) as Props) as unknown as ObjectShape<Pick<P, K>>;
}

/** `Omit<A, 'x'>` */
/* @__NO_SIDE_EFFECTS__ */
export function omit<P extends Props, const K extends keyof P & string>(base: ObjectShape<P>, keys: readonly K[]): ObjectShape<Omit<P, K>> {
  return object(Object.fromEntries(Object.entries(base.props).filter(([key]) => !(keys as readonly string[]).includes(key))) as Props) as unknown as ObjectShape<Omit<P, K>>;
}

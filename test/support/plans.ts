/** Query plans for the plan tests (test/db/*-plans.test.ts). */
import type { Db } from '@platform/db';

/**
 * The plan a prepared statement keeps for every caller once PostgreSQL settles on a generic one
 * (the account a parameter it cannot see): prepared with these values' types and EXPLAINed as generic.
 */
export async function genericPlan(db: Db, text: string, values: unknown[]): Promise<Record<string, unknown>> {
  return db.sequelize.transaction(async (transaction) => {
    const literal = (v: unknown) => (v === null ? 'NULL' : v instanceof Date ? db.sequelize.escape(v.toISOString()) : db.sequelize.escape(v as string));
    await db.sequelize.query('SET LOCAL plan_cache_mode = force_generic_plan', { transaction });
    await db.sequelize.query(`PREPARE generic_plan_check AS ${text}`, { transaction });
    try {
      const [row] = await db.sequelize.query<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }>(
        `EXPLAIN (FORMAT JSON) EXECUTE generic_plan_check(${values.map(literal).join(', ')})`, { transaction, type: 'SELECT' as never });
      return row['QUERY PLAN'][0].Plan;
    } finally {
      await db.sequelize.query('DEALLOCATE generic_plan_check', { transaction });
    }
  });
}

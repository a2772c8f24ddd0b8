/**
 * The lab admin's turnaround target per test (receipt → result, in hours or days): GET every test
 * with its target, PUT one (audited with the old and the new values). A test with no row has none.
 */
import { QueryTypes, type Transaction } from 'sequelize';
import { TURNAROUND_TESTS, targetHours, type TargetUnit, type TurnaroundTargetBody, type TurnaroundTargetView } from '@platform/domain';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, type Caller } from '../audit';
import { toIso } from '../answer-values';

interface TargetRow {
  test_name: string;
  amount: number;
  unit: TargetUnit;
  updated_at: Date;
  updated_by: string | null;
}

const TARGET_SELECT = `SELECT tt.test_name, tt.amount, tt.unit, tt.updated_at,
         nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '') AS updated_by
    FROM turnaround_targets tt LEFT JOIN users u ON u.id = tt.updated_by_user_id`;

/** A target's hours in SQL, from the table's amount and unit (the one conversion of domain's targetHours). */
export const TARGET_HOURS_SQL = `CASE tt.unit WHEN 'days' THEN tt.amount * 24 ELSE tt.amount END`;

function targetView(testName: string, row: TargetRow | undefined): TurnaroundTargetView {
  return row
    ? { testName, amount: row.amount, unit: row.unit, hours: targetHours(row.amount, row.unit), updatedAt: toIso(row.updated_at), updatedBy: row.updated_by }
    : { testName, amount: null, unit: null, hours: null, updatedAt: null, updatedBy: null };
}

/** GET /api/admin/turnaround/targets: every test turnaround is measured for, in catalogue order, with its target. */
export async function listTurnaroundTargets(ctx: Pick<ServerContext, 'db'>, transaction?: Transaction): Promise<TurnaroundTargetView[]> {
  const rows = await ctx.db.sequelize.query<TargetRow>(TARGET_SELECT, { type: QueryTypes.SELECT, transaction });
  return TURNAROUND_TESTS.map((name) => targetView(name, rows.find((r) => r.test_name === name)));
}

/** PUT /api/admin/turnaround/targets: one test's target, audited with the old and new values. */
export async function putTurnaroundTarget(ctx: Pick<ServerContext, 'db'>, caller: Caller, body: TurnaroundTargetBody): Promise<TurnaroundTargetView> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const [before] = await ctx.db.sequelize.query<TargetRow>(`${TARGET_SELECT} WHERE tt.test_name = :testName FOR UPDATE OF tt`, {
      replacements: { testName: body.testName }, type: QueryTypes.SELECT, transaction,
    });
    await ctx.db.sequelize.query(
      `INSERT INTO turnaround_targets (test_name, amount, unit, updated_by_user_id)
       VALUES (:testName, :amount, :unit, :userId)
       ON CONFLICT (test_name) DO UPDATE SET amount = EXCLUDED.amount, unit = EXCLUDED.unit,
         updated_by_user_id = EXCLUDED.updated_by_user_id, updated_at = now()`,
      { replacements: { ...body, userId: caller.userId }, transaction },
    );
    const [after] = await ctx.db.sequelize.query<TargetRow>(`${TARGET_SELECT} WHERE tt.test_name = :testName`, {
      replacements: { testName: body.testName }, type: QueryTypes.SELECT, transaction,
    });
    const old = targetView(body.testName, before);
    await recordAudit(ctx.db, {
      ...auditActor(caller),
      action: 'turnaround_target.updated',
      details: {
        testName: body.testName,
        old: { amount: old.amount, unit: old.unit },
        new: { amount: after.amount, unit: after.unit },
      },
    }, transaction);
    return targetView(body.testName, after);
  });
}

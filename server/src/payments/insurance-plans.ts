/** Insurance plans: the admin keeps the list; patients ordering with insurance choose from the active ones. */
import type { InsurancePlan } from '@platform/db';
import type { InsurancePlanBody, InsurancePlanRow } from '@platform/domain';
import { Op, type Transaction } from 'sequelize';
import { auditActor, recordAudit, type Caller } from '../audit';
import { conflict, conflictOnDuplicate, notFound } from '../errors';
import type { ServerContext } from '../context';

type Ctx = Pick<ServerContext, 'db'>;

const planRow = (p: InsurancePlan): InsurancePlanRow => ({ id: p.id, name: p.name, payerCode: p.payerCode, isActive: p.isActive });
const duplicateName = (name: string) => ({ field: 'name', message: `An insurance plan named "${name}" already exists` });

export async function listInsurancePlans(ctx: Ctx, { activeOnly }: { activeOnly: boolean }): Promise<InsurancePlanRow[]> {
  const plans = await ctx.db.models.InsurancePlan.findAll({ where: activeOnly ? { isActive: true } : {}, order: [['isActive', 'DESC'], ['name', 'ASC']] });
  return plans.map(planRow);
}

async function assertNameFree(ctx: Ctx, name: string, exceptId: number | null, transaction: Transaction) {
  const { sequelize } = ctx.db;
  const taken = await ctx.db.models.InsurancePlan.count({
    where: { [Op.and]: [sequelize.where(sequelize.fn('lower', sequelize.col('name')), name.toLowerCase()), ...(exceptId ? [{ id: { [Op.ne]: exceptId } }] : [])] },
    transaction,
  });
  if (taken) throw conflict(duplicateName(name).message, [duplicateName(name)]);
}

export async function createInsurancePlan(ctx: Ctx, caller: Caller, body: InsurancePlanBody): Promise<InsurancePlanRow> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    await assertNameFree(ctx, body.name, null, transaction);
    const plan = await conflictOnDuplicate(() => ctx.db.models.InsurancePlan.create(body, { transaction }), { insurance_plans_name_key: duplicateName(body.name) });
    await recordAudit(ctx.db, { ...auditActor(caller), action: 'insurance_plan.created', entityKind: null, entityId: plan.id, details: { before: null, after: body } }, transaction);
    return planRow(plan);
  });
}

/** Renames or retires (isActive false) a plan; orders that named it keep it. */
export async function updateInsurancePlan(ctx: Ctx, caller: Caller, planId: number, body: InsurancePlanBody): Promise<InsurancePlanRow> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const plan = await ctx.db.models.InsurancePlan.findByPk(planId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!plan) throw notFound('Insurance plan not found');
    await assertNameFree(ctx, body.name, plan.id, transaction);
    const before = planRow(plan);
    await conflictOnDuplicate(() => plan.update(body, { transaction }), { insurance_plans_name_key: duplicateName(body.name) });
    await recordAudit(ctx.db, { ...auditActor(caller), action: 'insurance_plan.updated', entityKind: null, entityId: plan.id, details: { before, after: body } }, transaction);
    return planRow(plan);
  });
}

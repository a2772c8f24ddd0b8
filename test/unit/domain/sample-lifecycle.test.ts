import { expect } from 'chai';
import {
  canRelease,
  checkTransition,
  describeSampleStatus,
  nextStatuses,
  planStatusChange,
  REJECTION_REASONS,
  SAMPLE_STATUSES,
  SAMPLE_TRANSITIONS,
  type Actor,
  TestResultStatus,
  workStatusOf,
  type SampleStatus,
  type Transition,
} from '@platform/domain';

const ACTORS: Actor[] = ['provider', 'lab', 'admin', 'system'];
const REASON = 'Rejected - specimen expired';

/** A request that satisfies every condition of the transition except who asks. */
function requestFor(t: Transition, actor: Actor) {
  return {
    from: t.from,
    to: t.to,
    actor,
    reason: t.reasonRequired ? REASON : null,
    statusBeforeStorage: t.onlyBackToStatusBeforeStorage ? t.to : null,
  };
}

function actorsOf(from: SampleStatus, to: SampleStatus): Actor[] {
  return ACTORS.filter((a) => SAMPLE_TRANSITIONS.some((t) => t.from === from && t.to === to && t.by.includes(a)));
}

describe('domain/sample-lifecycle', () => {
  it('the table is the lifecycle of DESIGN.md', () => {
    const rows = SAMPLE_TRANSITIONS.map((t) => `${t.from} -> ${t.to} [${t.by.join(',')}]${t.reasonRequired ? ' reason' : ''}`);
    expect(rows).to.deep.equal([
      'Order Placed -> Pending Shipment [provider,lab,admin,system]',
      'Pending Shipment -> In Transit [provider,lab,system]',
      'In Transit -> In Queue [lab]',
      'Pending Shipment -> In Queue [lab]',
      'In Queue -> In Testing [lab]',
      'In Testing -> Resulted [lab]',
      'Resulted -> Completed [lab,system]',
      'Completed -> Discarded [lab]',
      'Order Placed -> Discarded [provider,admin] reason',
      'Pending Shipment -> Discarded [provider,admin] reason',
      'In Transit -> Discarded [provider,admin] reason',
      'Pending Shipment -> Rejected [lab] reason',
      'In Transit -> Rejected [lab] reason',
      'In Queue -> Rejected [lab] reason',
      'In Testing -> Rejected [lab] reason',
      'In Queue -> In Storage [lab]',
      'In Testing -> In Storage [lab]',
      'Resulted -> In Storage [lab]',
      'Completed -> In Storage [lab]',
      'In Storage -> In Queue [lab]',
      'In Storage -> In Testing [lab]',
      'In Storage -> Resulted [lab]',
      'In Storage -> Completed [lab]',
      'In Storage -> Rejected [lab]',
    ]);
  });

  it('every status of the table is a spec status and no pair appears twice', () => {
    const pairs = SAMPLE_TRANSITIONS.map((t) => `${t.from}|${t.to}`);
    expect(new Set(pairs).size).to.equal(pairs.length);
    for (const t of SAMPLE_TRANSITIONS) {
      expect(SAMPLE_STATUSES).to.include(t.from);
      expect(SAMPLE_STATUSES).to.include(t.to);
      expect(t.from).to.not.equal(t.to);
    }
  });

  describe('every transition of the table', () => {
    for (const t of SAMPLE_TRANSITIONS) {
      it(`${t.from} -> ${t.to}: allowed for ${t.by.join(', ')}, refused for the others`, () => {
        for (const actor of ACTORS) {
          const result = checkTransition(requestFor(t, actor));
          if (t.by.includes(actor)) {
            expect(result, actor).to.deep.equal({ ok: true, transition: t });
          } else {
            expect(result, actor).to.deep.equal({
              ok: false,
              error: `A ${actor} user cannot move a sample from ${t.from} to ${t.to}`,
            });
          }
        }
      });
    }
  });

  describe('every pair not in the table is refused for every actor', () => {
    for (const from of SAMPLE_STATUSES) {
      const notAllowed = SAMPLE_STATUSES.filter((to) => !SAMPLE_TRANSITIONS.some((t) => t.from === from && t.to === to));
      it(`from ${from}: ${notAllowed.length} refused targets`, () => {
        for (const to of notAllowed) {
          for (const actor of ACTORS) {
            expect(checkTransition({ from, to, actor, reason: REASON, statusBeforeStorage: to }), `${from} -> ${to} by ${actor}`)
              .to.deep.equal({ ok: false, error: `A sample cannot go from ${from} to ${to}` });
          }
        }
      });
    }
    it('counts: 10 statuses x 10 = 100 pairs, 23 in the table, 79 refused to the lab', () => {
      let refused = 0;
      for (const from of SAMPLE_STATUSES) {
        for (const to of SAMPLE_STATUSES) {
          if (!checkTransition({ from, to, actor: 'lab', reason: REASON, statusBeforeStorage: to }).ok) refused += 1;
        }
      }
      expect(refused).to.equal(79);
    });
    it('terminal statuses lead nowhere', () => {
      for (const actor of ACTORS) {
        expect(nextStatuses('Rejected', actor)).to.deep.equal([]);
        expect(nextStatuses('Discarded', actor)).to.deep.equal([]);
      }
    });
  });

  describe('rejection', () => {
    for (const from of ['Pending Shipment', 'In Transit', 'In Queue', 'In Testing'] as SampleStatus[]) {
      it(`from ${from} needs one of the spec's reasons`, () => {
        for (const reason of [undefined, null, '', '   ']) {
          expect(checkTransition({ from, to: 'Rejected', actor: 'lab', reason })).to.deep.equal({
            ok: false, error: 'A reason is required to move a sample to Rejected',
          });
        }
        for (const reason of ['bad sample', 'quantity not sufficient', 'rejected - specimen expired', ' Rejected - specimen expired']) {
          const result = checkTransition({ from, to: 'Rejected', actor: 'lab', reason });
          expect(result.ok, reason).to.equal(false);
          expect(result.ok === false && result.error).to.equal(`The reason must be one of: ${REJECTION_REASONS.join('; ')}`);
        }
        for (const reason of REJECTION_REASONS) {
          expect(checkTransition({ from, to: 'Rejected', actor: 'lab', reason }).ok, reason).to.equal(true);
        }
      });
    }
    it('cannot reject before shipment or after a result', () => {
      for (const from of ['Order Placed', 'Resulted', 'Completed', 'In Storage', 'Discarded'] as SampleStatus[]) {
        expect(checkTransition({ from, to: 'Rejected', actor: 'lab', reason: REASON }).ok, from).to.equal(false);
      }
    });
  });

  describe('a cancelled order\'s sample', () => {
    it('is discarded from Order Placed, Pending Shipment or In Transit by a provider or admin, with a reason, and never once received', () => {
      for (const from of ['Order Placed', 'Pending Shipment', 'In Transit'] as SampleStatus[]) {
        expect(checkTransition({ from, to: 'Discarded', actor: 'provider', reason: '  ' })).to.deep.equal({ ok: false, error: 'A reason is required to move a sample to Discarded' });
        expect(checkTransition({ from, to: 'Discarded', actor: 'provider', reason: 'Order cancelled' }).ok).to.equal(true);
        expect(checkTransition({ from, to: 'Discarded', actor: 'lab', reason: 'Order cancelled' }).ok).to.equal(false);
      }
      expect(checkTransition({ from: 'In Queue', to: 'Discarded', actor: 'provider', reason: 'Order cancelled' }).ok).to.equal(false);
    });
  });

  describe('storage', () => {
    const stored: SampleStatus[] = ['In Queue', 'In Testing', 'Resulted', 'Completed'];
    for (const before of stored) {
      it(`a sample stored from ${before} leaves storage only back to ${before}`, () => {
        expect(checkTransition({ from: before, to: 'In Storage', actor: 'lab' }).ok).to.equal(true);
        for (const to of stored) {
          const result = checkTransition({ from: 'In Storage', to, actor: 'lab', statusBeforeStorage: before });
          if (to === before) {
            expect(result.ok, to).to.equal(true);
          } else {
            expect(result, to).to.deep.equal({
              ok: false, error: `A sample leaves storage only for the status it had before (${before})`,
            });
          }
        }
      });
    }
    it('refuses leaving storage when the status before storage is unknown', () => {
      expect(checkTransition({ from: 'In Storage', to: 'In Queue', actor: 'lab' })).to.deep.equal({
        ok: false, error: 'A sample leaves storage only for the status it had before (unknown)',
      });
      expect(checkTransition({ from: 'In Storage', to: 'In Queue', actor: 'lab', statusBeforeStorage: null }).ok).to.equal(false);
    });
    it('refuses leaving storage for a status a sample never enters storage from or reaches there', () => {
      for (const to of ['Order Placed', 'Pending Shipment', 'In Transit', 'Discarded'] as SampleStatus[]) {
        expect(checkTransition({ from: 'In Storage', to, actor: 'lab', statusBeforeStorage: to }).ok, to).to.equal(false);
      }
    });
    it('a sample rejected while stored leaves storage Rejected; a rejected sample is never stored', () => {
      expect(checkTransition({ from: 'In Storage', to: 'Rejected', actor: 'lab', statusBeforeStorage: 'Rejected' }).ok).to.equal(true);
      expect(checkTransition({ from: 'Rejected', to: 'In Storage', actor: 'lab' }).ok).to.equal(false);
    });
  });

  describe('nextStatuses', () => {
    it('lists what each actor may do next', () => {
      expect(nextStatuses('Order Placed', 'provider')).to.deep.equal(['Pending Shipment', 'Discarded']);
      expect(nextStatuses('Pending Shipment', 'lab')).to.deep.equal(['In Transit', 'In Queue', 'Rejected']);
      expect(nextStatuses('Pending Shipment', 'provider')).to.deep.equal(['In Transit', 'Discarded']);
      expect(nextStatuses('Pending Shipment', 'admin')).to.deep.equal(['Discarded']);
      expect(nextStatuses('In Queue', 'lab')).to.deep.equal(['In Testing', 'Rejected', 'In Storage']);
      expect(nextStatuses('Resulted', 'system')).to.deep.equal(['Completed']);
      expect(nextStatuses('In Storage', 'lab')).to.deep.equal(['In Queue', 'In Testing', 'Resulted', 'Completed', 'Rejected']);
      expect(nextStatuses('In Testing', 'provider')).to.deep.equal([]);
    });
  });

  describe('a sample In Storage: its lab work goes on (planStatusChange)', () => {
    const stored = (before: SampleStatus) => ({ status: 'In Storage' as SampleStatus, statusBeforeStorage: before });
    const loose = (status: SampleStatus) => ({ status, statusBeforeStorage: null });

    it('marks exactly the lab work that goes on while a sample is stored', () => {
      expect(SAMPLE_TRANSITIONS.filter((t) => t.whileStored).map((t) => `${t.from} -> ${t.to}`)).to.deep.equal([
        'In Queue -> In Testing',
        'In Testing -> Resulted',
        'Resulted -> Completed',
        'In Queue -> Rejected',
        'In Testing -> Rejected',
      ]);
    });

    it('a stored sample whose result is approved stays In Storage; it goes back to Resulted, the status event says so', () => {
      expect(planStatusChange(stored('In Testing'), { to: 'Resulted', actor: 'lab' })).to.deep.include({
        ok: true, status: 'In Storage', statusBeforeStorage: 'Resulted', inStorage: true,
        event: { from: 'In Testing', to: 'Resulted', reason: 'The sample stays In Storage' },
      });
    });

    it('its delivered result (the system) advances it to Completed, its own reason kept', () => {
      expect(planStatusChange(stored('Resulted'), { to: 'Completed', actor: 'system', reason: 'Result delivered' })).to.deep.include({
        ok: true, status: 'In Storage', statusBeforeStorage: 'Completed',
        event: { from: 'Resulted', to: 'Completed', reason: 'Result delivered (the sample stays In Storage)' },
      });
    });

    it('an imported result starts its testing; a rejection rejects it where it stays, with one of the spec reasons', () => {
      expect(planStatusChange(stored('In Queue'), { to: 'In Testing', actor: 'lab' })).to.deep.include({ ok: true, status: 'In Storage', statusBeforeStorage: 'In Testing' });
      expect(planStatusChange(stored('In Testing'), { to: 'Rejected', actor: 'lab', reason: REASON })).to.deep.include({
        ok: true, status: 'In Storage', statusBeforeStorage: 'Rejected',
        event: { from: 'In Testing', to: 'Rejected', reason: `${REASON} (the sample stays In Storage)` },
      });
      expect(planStatusChange(stored('In Testing'), { to: 'Rejected', actor: 'lab', reason: 'bad' })).to.deep.equal({
        ok: false, error: `The sample is In Storage (it left In Testing): The reason must be one of: ${REJECTION_REASONS.join('; ')}`,
      });
    });

    it('advances exactly as the status would have: every step from every status, for every actor, allowed and refused alike', () => {
      for (const before of ['In Queue', 'In Testing', 'Resulted', 'Completed'] as SampleStatus[]) {
        for (const to of SAMPLE_STATUSES) {
          if (to === before || to === 'In Storage') continue;
          for (const actor of ACTORS) {
            for (const reason of [null, REASON]) {
              const loosePlan = planStatusChange(loose(before), { to, actor, reason });
              const storedPlan = planStatusChange(stored(before), { to, actor, reason });
              const label = `${before} -> ${to} by ${actor} (${reason ?? 'no reason'})`;
              if (!loosePlan.ok || !loosePlan.transition.whileStored) {
                expect(storedPlan.ok, label).to.equal(false);
                continue;
              }
              expect(storedPlan.ok, label).to.equal(true);
              if (!storedPlan.ok) continue;
              expect([storedPlan.status, storedPlan.statusBeforeStorage], label).to.deep.equal(['In Storage', loosePlan.status]);
              expect([storedPlan.event.from, storedPlan.event.to], label).to.deep.equal([loosePlan.event.from, loosePlan.event.to]);
            }
          }
        }
      }
    });

    it('what must happen off the plate is refused while stored, in words that say what to do', () => {
      expect(planStatusChange(stored('Completed'), { to: 'Discarded', actor: 'lab' })).to.deep.equal({
        ok: false, error: 'The sample is In Storage: take it out of storage before it goes from Completed to Discarded',
      });
      expect(planStatusChange(stored('Resulted'), { to: 'Rejected', actor: 'lab', reason: REASON })).to.deep.equal({
        ok: false, error: 'The sample is In Storage (it left Resulted): A sample cannot go from Resulted to Rejected',
      });
      expect(planStatusChange(stored('In Testing'), { to: 'Resulted', actor: 'provider' }).ok).to.equal(false);
    });

    it('taken out, it goes back to the status it goes back to; put in, it remembers the status it left', () => {
      expect(planStatusChange(stored('Completed'), { to: 'Completed', actor: 'lab' })).to.deep.include({
        ok: true, status: 'Completed', statusBeforeStorage: null, inStorage: false, event: { from: 'In Storage', to: 'Completed', reason: null },
      });
      expect(planStatusChange(loose('In Testing'), { to: 'In Storage', actor: 'lab' })).to.deep.include({
        ok: true, status: 'In Storage', statusBeforeStorage: 'In Testing', inStorage: false,
      });
      expect(planStatusChange(loose('In Testing'), { to: 'Resulted', actor: 'lab' })).to.deep.include({
        ok: true, status: 'Resulted', statusBeforeStorage: null, inStorage: false, event: { from: 'In Testing', to: 'Resulted', reason: null },
      });
    });

    it('store In Testing, approve, deliver, take out: Completed, as if it had never been stored', () => {
      let sample: { status: SampleStatus; statusBeforeStorage: SampleStatus | null } = loose('In Testing');
      const steps: [SampleStatus, 'lab' | 'system'][] = [['In Storage', 'lab'], ['Resulted', 'lab'], ['Completed', 'system']];
      for (const [to, actor] of steps) {
        const plan = planStatusChange(sample, { to, actor });
        if (!plan.ok) throw new Error(plan.error);
        sample = { status: plan.status, statusBeforeStorage: plan.statusBeforeStorage };
      }
      expect(sample).to.deep.equal({ status: 'In Storage', statusBeforeStorage: 'Completed' });
      expect(workStatusOf(sample)).to.equal('Completed');
      expect(describeSampleStatus(sample)).to.equal('In Storage (Completed when taken out)');
      const out = planStatusChange(sample, { to: workStatusOf(sample), actor: 'lab' });
      expect(out.ok && [out.status, out.statusBeforeStorage]).to.deep.equal(['Completed', null]);
    });

    it('the release rule reads a stored sample by the status it goes back to', () => {
      const candidate = {
        resultId: 9, resultStatus: TestResultStatus.InReview, testName: 'PROSTOX ultra', enteredByUserId: 1, barcode: '41000000000001',
        sampleStatus: 'In Storage' as SampleStatus, statusBeforeStorage: 'In Testing' as SampleStatus, correction: false, plate: null,
      };
      expect(canRelease(candidate, 2)).to.deep.equal({ ok: true });
      expect(canRelease({ ...candidate, statusBeforeStorage: 'In Queue' }, 2)).to.deep.equal({
        ok: false, kind: 'sample-status', message: 'Sample 41000000000001 is In Storage (In Queue when taken out): its result cannot be released',
      });
    });
  });
});

import { expect } from 'chai';
import {
  checkTransition,
  nextStatuses,
  REJECTION_REASONS,
  SAMPLE_STATUSES,
  SAMPLE_TRANSITIONS,
  type Actor,
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
    it('counts: 10 statuses x 10 = 100 pairs, 22 in the table, 80 refused to the lab', () => {
      let refused = 0;
      for (const from of SAMPLE_STATUSES) {
        for (const to of SAMPLE_STATUSES) {
          if (!checkTransition({ from, to, actor: 'lab', reason: REASON, statusBeforeStorage: to }).ok) refused += 1;
        }
      }
      expect(refused).to.equal(80);
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

  describe('a cancelled patient kit', () => {
    it('is discarded from Order Placed or Pending Shipment by a provider or admin, with a reason', () => {
      for (const from of ['Order Placed', 'Pending Shipment'] as SampleStatus[]) {
        expect(checkTransition({ from, to: 'Discarded', actor: 'provider', reason: '  ' })).to.deep.equal({ ok: false, error: 'A reason is required to move a sample to Discarded' });
        expect(checkTransition({ from, to: 'Discarded', actor: 'provider', reason: 'Order cancelled' }).ok).to.equal(true);
        expect(checkTransition({ from, to: 'Discarded', actor: 'lab', reason: 'Order cancelled' }).ok).to.equal(false);
      }
      expect(checkTransition({ from: 'In Transit', to: 'Discarded', actor: 'provider', reason: 'Order cancelled' }).ok).to.equal(false);
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
    it('refuses leaving storage for a status a sample never enters storage from', () => {
      for (const to of ['Order Placed', 'Pending Shipment', 'In Transit', 'Rejected', 'Discarded'] as SampleStatus[]) {
        expect(checkTransition({ from: 'In Storage', to, actor: 'lab', statusBeforeStorage: to }).ok, to).to.equal(false);
      }
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
      expect(nextStatuses('In Storage', 'lab')).to.deep.equal(['In Queue', 'In Testing', 'Resulted', 'Completed']);
      expect(nextStatuses('In Testing', 'provider')).to.deep.equal([]);
    });
  });
});

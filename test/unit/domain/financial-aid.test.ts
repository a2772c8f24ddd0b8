import { expect } from 'chai';
import { AccessStatus, isCurrentAid } from '@platform/domain';

describe('domain/patient-ordering isCurrentAid (the admin list and patient ordering share it)', () => {
  const today = '2026-11-23';
  it('counts an approved record through its last day, and not the day after', () => {
    expect(isCurrentAid({ status: AccessStatus.Approved, validUntil: '2026-11-23' }, today)).to.equal(true);
    expect(isCurrentAid({ status: AccessStatus.Approved, validUntil: '2027-01-01' }, today)).to.equal(true);
    expect(isCurrentAid({ status: AccessStatus.Approved, validUntil: '2026-11-22' }, today)).to.equal(false);
  });
  it('never counts a record that is not approved, or has no last day', () => {
    expect(isCurrentAid({ status: AccessStatus.Pending, validUntil: '2099-12-31' }, today)).to.equal(false);
    expect(isCurrentAid({ status: AccessStatus.Denied, validUntil: '2099-12-31' }, today)).to.equal(false);
    expect(isCurrentAid({ status: AccessStatus.Approved, validUntil: null }, today)).to.equal(false);
  });
});

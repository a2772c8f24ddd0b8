import { expect } from 'chai';
import {
  changePasswordBody,
  forgotPasswordBody,
  loginBody,
  paginationQuery,
  passwordSchema,
  resetPasswordBody,
  SIGN_IN_PORTALS,
  switchAccountBody,
  validate,
  type FieldError,
} from '@platform/domain';

const TOKEN = 'a'.repeat(32) + '0123456789ABCDEFabcdef0123456789';
const GOOD = 'correcthorse1';

function fieldsOf(result: ReturnType<typeof validate>): FieldError[] {
  if (!('fields' in result)) throw new Error(`expected errors, got ${JSON.stringify(result.value)}`);
  return result.fields;
}
function valueOf<T>(result: { value: T } | { fields: FieldError[] }): T {
  if ('fields' in result) throw new Error(`expected a value, got ${JSON.stringify(result.fields)}`);
  return result.value;
}

describe('domain/schemas', () => {
  it('SIGN_IN_PORTALS', () => {
    expect(SIGN_IN_PORTALS).to.deep.equal(['admin', 'provider', 'research', 'lab']);
  });

  describe('loginBody', () => {
    it('accepts a good body, trims and lower-cases the email, keeps the password as typed', () => {
      expect(valueOf(validate(loginBody, { email: ' Dr.Smith@Clinic.example.org ', password: ' x ', portal: 'provider' })))
        .to.deep.equal({ email: 'dr.smith@clinic.example.org', password: ' x ', portal: 'provider' });
      for (const portal of SIGN_IN_PORTALS) {
        expect(valueOf(validate(loginBody, { email: 'a@lab.test', password: 'p', portal })).portal).to.equal(portal);
      }
    });
    it('refuses an unknown key and names it', () => {
      expect(fieldsOf(validate(loginBody, { email: 'a@b.org', password: 'p', portal: 'lab', role: 'admin' })))
        .to.deep.equal([{ field: 'role', message: 'role is not allowed' }]);
    });
    it('reports every missing field at once, by name', () => {
      expect(fieldsOf(validate(loginBody, {}))).to.deep.equal([
        { field: 'email', message: 'Email is required' },
        { field: 'password', message: 'Password is required' },
        { field: 'portal', message: 'Portal is required' },
      ]);
    });
    it('refuses a bad email', () => {
      for (const email of ['', 'not-an-email', 'a@b', 'a@@b.org', 'a b@c.org', `${'a'.repeat(250)}@b.org`]) {
        const fields = fieldsOf(validate(loginBody, { email, password: 'p', portal: 'lab' }));
        expect(fields.length, email).to.be.greaterThan(0);
        expect(fields.every((f) => f.field === 'email'), email).to.equal(true);
        expect(fields[0].message, email).to.match(/^Email /);
      }
      expect(fieldsOf(validate(loginBody, { email: 'nope', password: 'p', portal: 'lab' })))
        .to.deep.equal([{ field: 'email', message: 'Email must be a valid email' }]);
      expect(fieldsOf(validate(loginBody, { email: `${'a'.repeat(250)}@b.org`, password: 'p', portal: 'lab' })).map((f) => f.message))
        .to.include('Email length must be less than or equal to 254 characters long');
    });
    it('refuses wrong types', () => {
      expect(fieldsOf(validate(loginBody, { email: 42, password: ['x'], portal: 'lab' }))).to.deep.equal([
        { field: 'email', message: 'Email must be a string' },
        { field: 'password', message: 'Password must be a string' },
      ]);
      expect(fieldsOf(validate(loginBody, null))).to.deep.equal([{ field: '', message: 'Request body must be of type object' }]);
      expect(fieldsOf(validate(loginBody, 'email=a'))).to.deep.equal([{ field: '', message: 'Request body must be of type object' }]);
    });
    it('refuses an empty or too long password and an unknown portal', () => {
      expect(fieldsOf(validate(loginBody, { email: 'a@b.org', password: '', portal: 'patient' }))).to.deep.equal([
        { field: 'password', message: 'Password is not allowed to be empty' },
        { field: 'portal', message: 'Portal must be one of admin, provider, research, lab' },
      ]);
      expect(fieldsOf(validate(loginBody, { email: 'a@b.org', password: 'x'.repeat(201), portal: 'lab' }))[0].field).to.equal('password');
      expect(valueOf(validate(loginBody, { email: 'a@b.org', password: 'x'.repeat(200), portal: 'lab' })).password).to.have.length(200);
    });
  });

  describe('forgotPasswordBody', () => {
    it('accepts email and portal only', () => {
      expect(valueOf(validate(forgotPasswordBody, { email: 'a@b.org', portal: 'admin' }))).to.deep.equal({ email: 'a@b.org', portal: 'admin' });
      expect(fieldsOf(validate(forgotPasswordBody, { email: 'a@b.org', portal: 'admin', password: 'x' })))
        .to.deep.equal([{ field: 'password', message: 'password is not allowed' }]);
    });
  });

  describe('passwordSchema (strong password)', () => {
    it('accepts 10+ characters with a letter and a digit', () => {
      for (const p of ['abcdefghi1', '1234567890a', 'Pässwörd12', 'x'.repeat(199) + '1', 'correct horse battery 9']) {
        expect(valueOf(validate(passwordSchema, p)), p).to.equal(p);
      }
    });
    it('refuses weak passwords with a message that never repeats them', () => {
      const cases: [string, string][] = [
        ['abcdefgh1', 'Password must be at least 10 characters long'],
        ['abcdefghij', 'Password must contain at least one digit'],
        ['1234567890', 'Password must contain at least one letter'],
        ['!!!!!!!!!!!!', 'Password must contain at least one letter'],
        ['x'.repeat(200) + '1', 'Password must be at most 200 characters long'],
      ];
      for (const [p, message] of cases) {
        const fields = fieldsOf(validate(passwordSchema, p));
        expect(fields.map((f) => f.message), p).to.include(message);
        for (const f of fields) expect(f.message).to.not.contain(p);
      }
      expect(fieldsOf(validate(passwordSchema, '!!!!!!!!!!!!')).map((f) => f.message)).to.deep.equal([
        'Password must contain at least one letter',
        'Password must contain at least one digit',
      ]);
    });
  });

  describe('resetPasswordBody', () => {
    it('accepts a 64-hex token and a strong password', () => {
      expect(valueOf(validate(resetPasswordBody, { token: TOKEN, password: GOOD }))).to.deep.equal({ token: TOKEN, password: GOOD });
    });
    it('refuses a malformed token without echoing it', () => {
      for (const token of [TOKEN.slice(1), TOKEN + 'a', 'g'.repeat(64), '', `${TOKEN.slice(2)}  `]) {
        const fields = fieldsOf(validate(resetPasswordBody, { token, password: GOOD }));
        expect(fields.map((f) => f.field), token).to.deep.equal(['token']);
        if (token) expect(fields[0].message).to.not.contain(token);
      }
      expect(fieldsOf(validate(resetPasswordBody, { token: 'zz', password: GOOD })))
        .to.deep.equal([{ field: 'token', message: 'Token is not a valid reset link token' }]);
    });
    it('refuses a weak password and an unknown key', () => {
      expect(fieldsOf(validate(resetPasswordBody, { token: TOKEN, password: 'short1', email: 'a@b.org' }))).to.deep.equal([
        { field: 'password', message: 'Password must be at least 10 characters long' },
        { field: 'email', message: 'email is not allowed' },
      ]);
    });
  });

  describe('changePasswordBody', () => {
    it('accepts a current and a different strong new password', () => {
      expect(valueOf(validate(changePasswordBody, { currentPassword: 'old', newPassword: GOOD })))
        .to.deep.equal({ currentPassword: 'old', newPassword: GOOD });
    });
    it('names each field', () => {
      expect(fieldsOf(validate(changePasswordBody, { newPassword: 'weak' }))).to.deep.equal([
        { field: 'currentPassword', message: 'Current password is required' },
        { field: 'newPassword', message: 'New password must be at least 10 characters long' },
        { field: 'newPassword', message: 'New password must contain at least one digit' },
      ]);
    });
    it('refuses a new password equal to the current one', () => {
      expect(fieldsOf(validate(changePasswordBody, { currentPassword: GOOD, newPassword: GOOD })))
        .to.deep.equal([{ field: 'newPassword', message: 'New password must be different from the current password' }]);
    });
  });

  describe('switchAccountBody', () => {
    it('accepts a positive integer (also sent as a numeric string)', () => {
      expect(valueOf(validate(switchAccountBody, { accountId: 7 }))).to.deep.equal({ accountId: 7 });
      expect(valueOf(validate(switchAccountBody, { accountId: '12' }))).to.deep.equal({ accountId: 12 });
    });
    it('refuses zero, negatives, fractions, words and extra keys', () => {
      expect(fieldsOf(validate(switchAccountBody, { accountId: 0 }))).to.deep.equal([{ field: 'accountId', message: 'Account must be a positive number' }]);
      expect(fieldsOf(validate(switchAccountBody, { accountId: -3 }))).to.deep.equal([{ field: 'accountId', message: 'Account must be a positive number' }]);
      expect(fieldsOf(validate(switchAccountBody, { accountId: 1.5 }))).to.deep.equal([{ field: 'accountId', message: 'Account must be an integer' }]);
      expect(fieldsOf(validate(switchAccountBody, { accountId: 'one' }))).to.deep.equal([{ field: 'accountId', message: 'Account must be a number' }]);
      expect(fieldsOf(validate(switchAccountBody, { accountId: 1, userId: 2 }))).to.deep.equal([{ field: 'userId', message: 'userId is not allowed' }]);
    });
  });

  describe('paginationQuery', () => {
    it('applies the defaults: page 1, page size 10', () => {
      expect(valueOf(validate(paginationQuery, {}))).to.deep.equal({ page: 1, pageSize: 10 });
    });
    it('converts query strings', () => {
      expect(valueOf(validate(paginationQuery, { page: '3', pageSize: '200', sort: 'createdAt', order: 'desc' })))
        .to.deep.equal({ page: 3, pageSize: 200, sort: 'createdAt', order: 'desc' });
    });
    it('refuses out-of-range values and unknown keys', () => {
      expect(fieldsOf(validate(paginationQuery, { page: '0', pageSize: '201', order: 'up', sort: 'name; drop', limit: '5' }))).to.deep.equal([
        { field: 'page', message: 'Page must be greater than or equal to 1' },
        { field: 'pageSize', message: 'Page size must be less than or equal to 200' },
        { field: 'sort', message: 'Sort must be a field name' },
        { field: 'order', message: 'Order must be asc or desc' },
        { field: 'limit', message: 'limit is not allowed' },
      ]);
      expect(fieldsOf(validate(paginationQuery, { pageSize: 0 }))).to.deep.equal([{ field: 'pageSize', message: 'Page size must be greater than or equal to 1' }]);
    });
  });

  describe('validate: NUL characters', () => {
    it('refuses a string holding U+0000 (PostgreSQL text cannot store it), naming the field, even where the schema would take it', () => {
      expect(fieldsOf(validate(loginBody, { email: 'a@lab.test', password: 'pass\u0000word', portal: 'provider' })))
        .to.deep.equal([{ field: 'password', message: 'password must not contain a NUL character' }]);
      expect(valueOf(validate(loginBody, { email: 'a@lab.test', password: 'Zoë 🧪 \u202e', portal: 'provider' })).password).to.equal('Zoë 🧪 \u202e');
    });
  });
});

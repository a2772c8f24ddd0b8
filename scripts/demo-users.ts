/**
 * The demo logins that `npm start` seeds and the README lists. The password is an obviously-dev
 * value that can be changed with DEMO_PASSWORD.
 */
export const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password-1';

export const DEMO_USERS = {
  admin: { email: 'admin@demo.test', kind: 'admin', firstName: 'Ada', lastName: 'Admin' },
  lab1: { email: 'lab1@demo.test', kind: 'lab', firstName: 'Leo', lastName: 'Bench' },
  lab2: { email: 'lab2@demo.test', kind: 'lab', firstName: 'Lena', lastName: 'Pipette' },
  physician: { email: 'physician@demo.test', kind: 'provider', firstName: 'Paula', lastName: 'Grant' },
  staff: { email: 'staff@demo.test', kind: 'provider', firstName: 'Sam', lastName: 'Staff' },
  superAdmin: { email: 'superadmin@demo.test', kind: 'provider', firstName: 'Sue', lastName: 'Perry' },
  researcher: { email: 'researcher@demo.test', kind: 'provider', firstName: 'Rita', lastName: 'Search' },
} as const;
export type DemoUserKey = keyof typeof DEMO_USERS;

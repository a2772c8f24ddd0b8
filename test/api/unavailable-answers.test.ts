/**
 * PostgreSQL or Redis out of reach answers 503 with Retry-After (the caller may try again), never a
 * 500: the failures the chaos run meets, each through the one error handler.
 */
import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { createLogger } from '@platform/server';
import { errorHandler } from '../../api/src/http/error-handler';

function appFailingWith(err: Error) {
  const app = express();
  app.get('/fail', (_req, _res, next) => next(err));
  app.use(errorHandler(createLogger({ logLevel: 'silent' }, 'test')));
  return app;
}

describe('answers while PostgreSQL or Redis is out of reach', () => {
  const outOfReach: [string, Error][] = [
    ['a pg client whose connection broke (PostgreSQL restarting)', new Error('Client has encountered a connection error and is not queryable')],
    ['a connection PostgreSQL terminated', new Error('Connection terminated unexpectedly')],
    ['PostgreSQL refusing connections', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['PostgreSQL shutting down (57P01), wrapped by Sequelize', Object.assign(new Error('terminating connection'), { name: 'SequelizeDatabaseError', parent: { code: '57P01', message: 'terminating connection due to administrator command' } })],
  ];
  for (const [what, err] of outOfReach) {
    it(`${what}: 503 with Retry-After`, async () => {
      const res = await request(appFailingWith(err)).get('/fail').expect(503);
      expect(res.headers['retry-after']).to.equal('5');
      expect(res.body.error.message).to.equal('The service is briefly unavailable. Please try again in a moment.');
    });
  }

  it('any other failure stays a 500 that names nothing of the failure', async () => {
    const res = await request(appFailingWith(new Error('duplicate key value violates unique constraint'))).get('/fail').expect(500);
    expect(JSON.stringify(res.body)).not.to.include('duplicate key');
  });
});

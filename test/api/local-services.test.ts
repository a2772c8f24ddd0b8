import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { Redis } from 'ioredis';
import { findPostgres, findRedis } from '../../scripts/local-services';

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

describe('npm start on a machine without PostgreSQL or Redis', function () {
  this.timeout(120_000);
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-services-'));
    chmodSync(dataDir, 0o755); // as root, the embedded PostgreSQL runs as its own user and must reach its folder
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('uses DATABASE_URL and REDIS_URL when they are set', async () => {
    const postgres = await findPostgres({ env: { DATABASE_URL: 'postgres://x@db.example:5432/p' } });
    const redis = await findRedis({ env: { REDIS_URL: 'redis://cache.example:6379' } });
    expect([postgres.source, postgres.url]).to.deep.equal(['DATABASE_URL', 'postgres://x@db.example:5432/p']);
    expect([redis.source, redis.url]).to.deep.equal(['REDIS_URL', 'redis://cache.example:6379']);
  });

  it('starts an embedded PostgreSQL when nothing answers on the local port, and it serves queries', async () => {
    const postgres = await findPostgres({ env: {}, localPort: await freePort(), embeddedPort: await freePort(), dataDir });
    try {
      expect(postgres.source).to.match(/^embedded PostgreSQL in /);
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      const { rows } = await client.query('SELECT current_database() AS db');
      await client.end();
      expect(rows[0].db).to.equal('platform');
    } finally {
      await postgres.stop();
    }
  });

  it('spawns redis-server when nothing answers on the local port, and it answers PING', async () => {
    const redis = await findRedis({ env: {}, localPort: await freePort(), embeddedPort: await freePort(), dataDir });
    try {
      expect(redis.source).to.match(/^redis-server started in /);
      const client = new Redis(redis.url);
      expect(await client.ping()).to.equal('PONG');
      client.disconnect();
    } finally {
      await redis.stop();
    }
  });
});

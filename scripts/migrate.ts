/** `npm run migrate [-- down]`: applies (or reverts all) migrations on DATABASE_URL. */
import { connect, createMigrator } from '@platform/db';
import { loadConfig } from '@platform/server';

const db = connect(loadConfig().databaseUrl);
try {
  const migrator = createMigrator(db.sequelize);
  const done = process.argv[2] === 'down' ? await migrator.down({ to: 0 }) : await migrator.up();
  console.log(`${process.argv[2] === 'down' ? 'Reverted' : 'Applied'} ${done.length} migration(s).`);
} finally {
  await db.close();
}

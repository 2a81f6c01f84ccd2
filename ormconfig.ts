import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config';
import { databaseTarget } from './src/database/data-source-options';

/**
 * The TypeORM CLI's DataSource (`npm run migration:run`, `migration:revert`): DATABASE_URL when set,
 * else the embedded database in DATA_DIR, exactly as the server would open it.
 */
const target = databaseTarget(loadConfig());
export default new DataSource(target.options);

import { Injectable } from '@nestjs/common';
import { ModuleRepository } from '../../database/repository';

/** The readiness probe's view of the database (no table of its own). */
@Injectable()
export class DatabaseProbe extends ModuleRepository {
  /** Resolves when the database answers `SELECT 1`; rejects otherwise. */
  async ping(): Promise<void> {
    await this.sql('SELECT 1');
  }

  /** `postgres` when the data source has a URL, else the embedded database. */
  get kind(): 'postgres' | 'embedded' {
    return (this.uow.ds.options as { url?: string }).url ? 'postgres' : 'embedded';
  }
}

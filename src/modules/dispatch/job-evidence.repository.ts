import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { JobEvidence, StationTicket } from './dispatch.entities';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);

/** The columns of a station ticket a later ticket of the job replaces. */
export type TicketValues = Pick<StationTicket, 'stationId' | 'driverId' | 'ticketNumber' | 'grossKg' | 'tareKg' | 'netKg' | 'weighedAt'>;

/**
 * What drivers record on jobs (docs/data-layer.md): the `job_evidence` rows (photos, signatures, QR
 * scans, tickets) and the job's one `station_tickets` row. Reads and writes run in the open unit of work,
 * within the scope's company (the caller reached the job with its scope).
 */
@Injectable()
export class JobEvidenceRepository extends ModuleRepository {

  /** Whether evidence of another company than the scope's uses the upload (one statement). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  async mediaUsedOutside(scope: Scope, mediaId: string): Promise<boolean> {
    const [hit] = await this.sql<{ '?column?': number }>(`SELECT 1 FROM job_evidence WHERE media_id = $1 AND company_id <> $2 LIMIT 1`, [mediaId, scope.companyId]);
    return !!hit;
  }

  /** A new evidence row of the scope's company (its id filled in). */
  @GenerateSql({ params: [SAMPLE_SCOPE, { jobId: SQL_SAMPLE.id, driverId: SQL_SAMPLE.otherId, kind: 'photo', mediaId: null, url: 'https://example.com/p.jpg', code: null, note: null, lat: null, lng: null }] })
  async insert(scope: Scope, row: Omit<Partial<JobEvidence>, 'companyId'>): Promise<JobEvidence> {
    const evidence = this.m.create(JobEvidence, { ...row, companyId: scope.companyId });
    await this.m.insert(JobEvidence, evidence);
    return evidence;
  }

  /** An evidence row of the scope's company by id, as stored (its defaults read back). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  async get(scope: Scope, id: string): Promise<JobEvidence> {
    const row = await this.m.findOneBy(JobEvidence, { id, companyId: scope.companyId });
    if (!row) throw ApiError.notFound('Evidence');
    return row;
  }

  /** A job's evidence, oldest first. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  ofJob(scope: Scope, jobId: string): Promise<JobEvidence[]> {
    return this.m.find(JobEvidence, { where: { jobId, companyId: scope.companyId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Evidence rows of kind photo exist for the job (one statement). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  hasPhoto(scope: Scope, jobId: string): Promise<boolean> {
    return this.m.existsBy(JobEvidence, { jobId, companyId: scope.companyId, kind: 'photo' });
  }

  /** The job's station ticket; null when none. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  ticketOf(scope: Scope, jobId: string): Promise<StationTicket | null> {
    return this.m.findOne(StationTicket, { where: { jobId, companyId: scope.companyId } });
  }

  /** Sets the job's station ticket (replacing the one it had) and reads it back. */
  @GenerateSql({
    params: () => [
      Scope.company(SQL_SAMPLE.companyId),
      SQL_SAMPLE.id,
      { stationId: SQL_SAMPLE.otherId, driverId: SQL_SAMPLE.actorId, ticketNumber: 'T-1', grossKg: 3000, tareKg: 1000, netKg: 2000, weighedAt: SQL_SAMPLE.at },
    ],
  })
  async saveTicket(scope: Scope, jobId: string, values: TicketValues): Promise<StationTicket> {
    const existing = await this.m.findOne(StationTicket, { where: { jobId } });
    if (existing) await this.m.update(StationTicket, { id: existing.id }, values);
    else await this.m.insert(StationTicket, this.m.create(StationTicket, { companyId: scope.companyId, jobId, ...values }));
    return this.m.findOneByOrFail(StationTicket, { jobId });
  }
}

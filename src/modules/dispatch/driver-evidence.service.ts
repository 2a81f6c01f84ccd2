import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { ApiError, type FieldErrors } from '../../common/http/api-error';
import { JobsService, pickupSideOf, type JobView } from '../jobs';
import { MediaService } from '../media';
import { OrderOperations, orderNumber } from '../orders';
import { QrCodesService } from '../qr-codes';
import { OpeningCalendar, StationsService } from '../sites';
import type { EvidenceKind, StationTicket } from './dispatch.entities';
import { AddEvidenceDto, JobEvidenceDto } from './driver-jobs.dto';
import { DriverJobsService, DUMPING_TYPES } from './driver-jobs.service';
import { UnitOfWork } from '../../database/unit-of-work';
import { JobEvidenceRepository } from './job-evidence.repository';

const TICKET_FIELDS = ['station_id', 'ticket_number', 'gross_kg', 'tare_kg'] as const;

/**
 * Evidence a driver records on a job in progress: photos and signatures (an upload's id or a URL), QR
 * scans checked against the job's asset, and station tickets (a weighbridge ticket: the job's one
 * `station_tickets` row, which a later ticket replaces; every ticket stays as an evidence row).
 */
@Injectable()
export class DriverEvidenceService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly evidence: JobEvidenceRepository,
    private readonly jobs: JobsService,
    private readonly driverJobs: DriverJobsService,
    private readonly orderOps: OrderOperations,
    private readonly media: MediaService,
    private readonly qr: QrCodesService,
    private readonly stations: StationsService,
    private readonly calendar: OpeningCalendar,
  ) {}

  async add(scope: Scope, jobId: string, d: AddEvidenceDto): Promise<JobEvidenceDto> {
    const today = await this.driverJobs.today(scope);
    return this.uow.transaction(async () => {
      const job = await this.jobs.lock(scope, jobId);
      const company = Scope.company(job.companyId);
      checkShape(d);
      await this.driverJobs.assertWorkable(job);
      if (job.status !== 'in_progress') throw ApiError.conflict('JOB_STATE', `Evidence is added to a job in progress; this job is ${job.status}.`);
      let url = d.url ?? null;
      if (d.media_id) {
        if ((await this.evidence.mediaUsedOutside(company, d.media_id)) || !(await this.media.exists(d.media_id))) throw ApiError.validation({ media_id: ['not found'] });
        url = `/api/v1/media/${d.media_id.toLowerCase()}`;
      }
      if (d.kind === 'qr_scan') await this.checkQr(job, d.code!);
      const ticket = d.kind === 'ticket' ? await this.recordTicket(job, d, today) : null;
      const evidence = await this.evidence.insert(company, {
        jobId: job.id,
        driverId: job.driverId!,
        kind: d.kind as EvidenceKind,
        mediaId: d.media_id?.toLowerCase() ?? null,
        url,
        code: d.code ?? null,
        note: d.note ?? null,
        lat: d.lat ?? null,
        lng: d.lng ?? null,
      });
      await this.evidence.recordEvents({
        type: 'job.evidence_added',
        aggregateType: 'job',
        aggregateId: job.id,
        companyId: job.companyId,
        actorId: scope.actorId,
        payload: { order_id: job.orderId, evidence_id: evidence.id, kind: evidence.kind, station_ticket_id: ticket?.id ?? null },
      });
      return JobEvidenceDto.of(await this.evidence.get(company, evidence.id), ticket);
    });
  }

  /**
   * The scanned code must be a genuine code of the company (422 on `code` otherwise) naming the job's
   * asset: the one it brings (delivery, swap) or the one its order has on site (and, for a swap, the
   * on-site asset of its side coming back: the merged pickup's order's). Another asset's code is 422
   * `QR_MISMATCH`.
   */
  private async checkQr(job: JobView, code: string): Promise<void> {
    const scanned = await this.qr.assetIdOf(Scope.company(job.companyId), code);
    if (!scanned) throw ApiError.validation({ code: ['is not a QR code of this company'] });
    const expected = new Set<string>();
    if (job.assetId) expected.add(job.assetId);
    const company = Scope.company(job.companyId);
    for (const orderId of new Set([job.orderId, pickupSideOf(job)])) {
      const onSite = (await this.jobs.onSiteAssets(company, orderId)).at(-1);
      if (onSite) expected.add(onSite);
    }
    if (!expected.has(scanned)) {
      const message = 'The scanned QR code belongs to another asset than this job\'s.';
      throw ApiError.unprocessable('QR_MISMATCH', message, { code: [message] });
    }
  }

  /**
   * The job's station ticket (one per job; a later one replaces it): only for a job that dumps
   * (pickup, swap, dump_return); the station must be the company's (422 `not found`), accept the
   * waste type of the container the job dumps (422 `WASTE_NOT_ACCEPTED`: its order's, a swap's side
   * coming back, `pickupSideOf`) and be open today (422 `HOLIDAY`, `CLOSED_DAY`, `INACTIVE`).
   */
  private async recordTicket(job: JobView, d: AddEvidenceDto, today: string): Promise<StationTicket> {
    const company = Scope.company(job.companyId);
    if (!DUMPING_TYPES.includes(job.type)) throw ApiError.validation({ kind: [`a ${job.type} job does not dump: only pickup, swap and dump_return jobs take a station ticket`] });
    const stationId = d.station_id!.toLowerCase();
    await this.stations.find(company, stationId).catch((e) => {
      throw e instanceof ApiError && e.code === 'NOT_FOUND' ? ApiError.validation({ station_id: ['not found'] }) : e;
    });
    const dumped = (await this.orderOps.many(company, [pickupSideOf(job)])).get(pickupSideOf(job))!;
    if (!(await this.stations.accepts(company, stationId, dumped.wasteTypeId))) {
      const message = job.orderId === dumped.id ? 'This station does not accept the order\'s waste type.' : `This station does not accept the waste type of the container this swap takes back (order ${orderNumber(dumped.number)}).`;
      throw ApiError.unprocessable('WASTE_NOT_ACCEPTED', message, { station_id: [message] });
    }
    await this.calendar.assertOpen('station', stationId, company, today, 'station_id');
    const values = {
      stationId,
      driverId: job.driverId!,
      ticketNumber: d.ticket_number!,
      grossKg: d.gross_kg!,
      tareKg: d.tare_kg!,
      netKg: d.gross_kg! - d.tare_kg!,
      weighedAt: new Date(),
    };
    return this.evidence.saveTicket(company, job.id, values);
  }
}

/** What each kind needs and refuses (422 naming the fields), before anything is read. */
function checkShape(d: AddEvidenceDto): void {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const file = d.kind === 'photo' || d.kind === 'signature' || d.kind === 'ticket';
  if ((d.kind === 'photo' || d.kind === 'signature') && d.media_id === undefined && d.url === undefined) add('media_id', `media_id or url is required for a ${d.kind}`);
  if (file && d.media_id !== undefined && d.url !== undefined) add('url', 'give media_id or url, not both');
  if (!file) for (const f of ['media_id', 'url'] as const) if (d[f] !== undefined) add(f, 'only with kind photo, signature or ticket');
  if (d.kind === 'qr_scan' && d.code === undefined) add('code', 'is required for a qr_scan');
  if (d.kind !== 'qr_scan' && d.code !== undefined) add('code', 'only with kind qr_scan');
  for (const f of TICKET_FIELDS) {
    if (d.kind === 'ticket' && d[f] === undefined) add(f, 'is required for a ticket');
    if (d.kind !== 'ticket' && d[f] !== undefined) add(f, 'only with kind ticket');
  }
  if (d.kind === 'ticket' && typeof d.gross_kg === 'number' && typeof d.tare_kg === 'number' && d.tare_kg >= d.gross_kg) add('tare_kg', 'must be less than gross_kg (net = gross − tare > 0)');
  if (Object.keys(errors).length) throw ApiError.validation(errors);
}

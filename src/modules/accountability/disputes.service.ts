import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { UnitOfWork } from '../../database/unit-of-work';
import { OrderOperations } from '../orders';
import { UsersService } from '../users';
import { CompanyDisputeMessageDto, CustomerDisputeMessageDto, DisputeDto, DisputeMessageDto, UpdateDisputeMessageDto } from './accountability.dto';
import { DisputeMessage, PolicyViolation } from './accountability.entities';
import type { Resolution } from './accountability.types';
import { DemeritService } from './demerit.service';
import { DisputeMessageRepository } from './dispute-message.repository';
import { ViolationRepository } from './violation.repository';
import { about, ViolationsService } from './violations.service';

const closed = (status: string) => ApiError.conflict('INVALID_TRANSITION', `This violation is ${status}: its dispute is closed.`);

/**
 * Disputes of violations (domain.md §7): the customer's first message opens one (`open → disputed`);
 * both sides post; the customer edits or deletes its own messages while the dispute is open; a company
 * message with `resolution` closes it: `upheld` (points and fee stay; also straight from `open`, the
 * company closing it without dispute) or `waived` (from `disputed`: points leave the standing, the fee
 * and its taxes are credited on the order's bill; a payments subscriber credits the wallet with what
 * was paid beyond the new total). Every write locks the violation first.
 */
@Injectable()
export class DisputesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly messages: DisputeMessageRepository,
    private readonly violationRows: ViolationRepository,
    private readonly violations: ViolationsService,
    private readonly orders: OrderOperations,
    private readonly users: UsersService,
    private readonly demerit: DemeritService,
  ) {}

  // ------------------------------------------------------------ writes

  /** A company message; with `resolution`, it closes the violation. Answers the dispute. */
  async postCompany(scope: Scope, violationId: string, d: CompanyDisputeMessageDto): Promise<DisputeDto> {
    await this.uow.transaction(async () => {
      // The order first (a waiver credits its bill), then the violation: the order of record/replace, so they cannot deadlock.
      const peek = await this.violationRows.find(scope, violationId);
      await this.orders.lock(scope, peek.orderId);
      const v = await this.violationRows.lock(scope, violationId);
      if (v.status !== 'open' && v.status !== 'disputed') throw closed(v.status);
      if (d.resolution === 'waived' && v.status === 'open') {
        throw ApiError.conflict('INVALID_TRANSITION', 'An undisputed violation can only be upheld (open → upheld); to drop it, replace the order\'s set.');
      }
      await this.violations.assertEvidence(d.evidence_media_ids);
      const messageId = await this.insert(scope, v, 'company', d, d.resolution ?? null);
      await this.posted(scope, v, messageId, 'company', false);
      if (d.resolution) await this.resolve(scope, v, d.resolution);
    });
    return this.dispute(scope, violationId);
  }

  /** A customer message; the first one opens the dispute. Answers the dispute. */
  async postCustomer(scope: Scope, violationId: string, d: CustomerDisputeMessageDto): Promise<DisputeDto> {
    await this.uow.transaction(async () => {
      const v = await this.violationRows.lock(scope, violationId);
      if (v.status !== 'open' && v.status !== 'disputed') throw closed(v.status);
      await this.violations.assertEvidence(d.evidence_media_ids);
      const opened = v.status === 'open';
      if (opened) await this.violationRows.update(scope, [v.id], { status: 'disputed', disputedAt: new Date() });
      const messageId = await this.insert(scope, v, 'customer', d, null);
      await this.posted(scope, v, messageId, 'customer', opened);
    });
    return this.dispute(scope, violationId);
  }

  /** The customer changes its own message while the dispute is open. */
  async editCustomer(scope: Scope, messageId: string, d: UpdateDisputeMessageDto): Promise<DisputeMessageDto> {
    await this.uow.transaction(async () => {
      const { v, x } = await this.ownMessage(scope, messageId);
      if (d.evidence_media_ids !== undefined) await this.violations.assertEvidence(d.evidence_media_ids);
      await this.messages.update(scope, x.id, { ...(d.body !== undefined ? { body: d.body } : {}), ...(d.evidence_media_ids !== undefined ? { evidenceMediaIds: d.evidence_media_ids } : {}), editedAt: new Date() });
      await this.violationRows.recordEvents({ type: 'policy_violation.dispute_message_changed', ...about(scope, v.id), payload: { order_id: v.orderId, customer_id: v.customerId, message_id: x.id, change: 'edited' } });
    });
    return this.message(scope, messageId);
  }

  /** The customer deletes its own message while the dispute is open (it leaves the dispute; the dispute stays open). */
  async deleteCustomer(scope: Scope, messageId: string): Promise<void> {
    await this.uow.transaction(async () => {
      const { v, x } = await this.ownMessage(scope, messageId);
      await this.messages.update(scope, x.id, { deletedAt: new Date() });
      await this.violationRows.recordEvents({ type: 'policy_violation.dispute_message_changed', ...about(scope, v.id), payload: { order_id: v.orderId, customer_id: v.customerId, message_id: x.id, change: 'deleted' } });
    });
  }

  // ------------------------------------------------------------ reads

  /** The violation with its messages, oldest first; 404 when `scope` does not reach it. */
  async dispute(scope: Scope, violationId: string): Promise<DisputeDto> {
    const violation = await this.violations.get(scope, violationId);
    const messages = await this.messages.ofViolation(scope, violationId);
    const names = await this.authorNames(scope, messages);
    return { violation, open: violation.status === 'open' || violation.status === 'disputed', messages: messages.map((x) => DisputeMessageDto.of(x, names.get(x.authorId) ?? '')) };
  }

  /** One message `scope` reaches (the company: any of its disputes'; a customer: those of its own violations); else 404. */
  async message(scope: Scope, messageId: string): Promise<DisputeMessageDto> {
    const x = await this.messages.findLive(scope, messageId);
    if (!x) throw ApiError.notFound('Dispute message');
    return DisputeMessageDto.of(x, (await this.authorNames(scope, [x])).get(x.authorId) ?? '');
  }

  // ------------------------------------------------------------ internals

  /** The authors' display names (one read for a dispute's messages). */
  private async authorNames(scope: Scope, messages: DisputeMessage[]): Promise<Map<string, string>> {
    return messages.length ? this.users.names(scope, [...new Set(messages.map((x) => x.authorId))]) : new Map();
  }

  /**
   * The caller's own message, with its violation locked (violation first, as every write here): 404
   * when not reached, 403 `NOT_AUTHOR` for the company's messages, 409 unless the dispute is open.
   */
  private async ownMessage(scope: Scope, messageId: string): Promise<{ v: PolicyViolation; x: DisputeMessage }> {
    const peek = await this.messages.find(scope, messageId);
    const v = await this.violationRows.lock(scope, peek.violationId);
    const x = await this.messages.lock(scope, messageId);
    if (x.authorType !== 'customer' || x.authorId !== scope.actorId) throw ApiError.forbidden('NOT_AUTHOR', 'Only your own messages can be changed or deleted.');
    if (v.status !== 'disputed') throw ApiError.conflict('INVALID_TRANSITION', `This violation is ${v.status}: messages can be changed only while the dispute is open.`);
    return { v, x };
  }

  private insert(scope: Scope, v: PolicyViolation, authorType: 'company' | 'customer', d: CustomerDisputeMessageDto, resolution: Resolution | null): Promise<string> {
    return this.messages.insert(scope, {
      violationId: v.id,
      customerId: v.customerId,
      authorType,
      authorId: scope.actorId!,
      body: d.body,
      evidenceMediaIds: d.evidence_media_ids ?? [],
      resolution,
    });
  }

  private posted(scope: Scope, v: PolicyViolation, messageId: string, authorType: 'company' | 'customer', opened: boolean): Promise<void> {
    return this.violationRows.recordEvents({
      type: 'policy_violation.dispute_message_posted',
      ...about(scope, v.id),
      payload: { order_id: v.orderId, customer_id: v.customerId, message_id: messageId, author_type: authorType, opened },
    });
  }

  /** Closes the violation; a waiver credits the fee lines on the order and leaves the standing without its points. */
  private async resolve(scope: Scope, v: PolicyViolation, resolution: Resolution): Promise<void> {
    let credited = 0;
    let creditLineIds: string[] = [];
    if (resolution === 'waived') {
      const credit = await this.orders.creditViolationFee(Scope.company(v.companyId), v.orderId, v.feeLineIds, 'Waived');
      credited = -credit.amount;
      creditLineIds = credit.lineIds;
    }
    await this.violationRows.update(scope, [v.id], { status: resolution, resolvedAt: new Date(), resolvedBy: scope.actorId, creditedAmount: credited, creditLineIds });
    await this.violationRows.recordEvents({
      type: 'policy_violation.resolved',
      ...about(scope, v.id),
      payload: { order_id: v.orderId, customer_id: v.customerId, resolution, points: v.points, fee_amount: resolution === 'waived' ? credited : v.chargedAmount },
    });
    if (resolution === 'waived') await this.demerit.refresh(scope, v.customerId);
  }
}

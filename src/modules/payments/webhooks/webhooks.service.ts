import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Actor } from '../../../common/access/actor';
import { Scope } from '../../../common/access/scope';
import { ApiError } from '../../../common/http/api-error';
import { WebhookEndpoint } from './webhook.entities';
import { CreateWebhookDto, WebhookEndpointDto } from './webhooks.dto';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);

/** Why a webhook URL is refused, or null: https anywhere, http only to this machine (tests, development). */
export function webhookUrlProblem(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (u.username || u.password) return 'must not carry credentials';
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:' && LOCAL_HOSTS.has(u.hostname)) return null;
  return 'must be https (http only for localhost or 127.0.0.1)';
}

@Injectable()
export class WebhooksService {
  constructor(private readonly ds: DataSource) {}

  /** Registers an endpoint for the caller's company (company users only) and answers its secret, once. */
  async create(actor: Actor, dto: CreateWebhookDto): Promise<WebhookEndpointDto> {
    if (actor.kind !== 'user' || actor.type !== 'company') throw ApiError.forbidden('WRONG_ACTOR', 'Webhook endpoints are registered by company users.');
    const companyId = Scope.of(actor).companyId;
    const problem = webhookUrlProblem(dto.url);
    if (problem) throw ApiError.validation({ url: [`url ${problem}`] });
    const repo = this.ds.getRepository(WebhookEndpoint);
    const row = await repo.save(
      repo.create({ companyId, url: dto.url, events: [...new Set(dto.events)], secret: `whsec_${randomBytes(32).toString('hex')}`, createdBy: actor.id }),
    );
    return WebhookEndpointDto.of(row);
  }
}

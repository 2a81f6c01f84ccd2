import { Body, Controller, Get, Injectable, Post } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { ApiError } from '../../common/http/api-error';
import { IdParam, isUuid } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { recordEvents } from '../../common/outbox/outbox';
import { AppConfig } from '../../config/app-config';
import { CurrentScope, Scope } from '../../common/access/scope';
import { AssetDto, AssetsService } from '../catalogue';
import { UuidField } from '../../common/validation/fields';
import { UnitOfWork } from '../../database/unit-of-work';
import type { QrCode } from './qr-code.entity';
import { QrCodeRepository } from './qr-code.repository';

export class CreateQrCodeDto {
  @UuidField() asset_id: string;
}

export class VerifyQrCodeDto {
  @ApiProperty({ description: 'The text read from the QR code.' }) @IsString() @MinLength(1) @MaxLength(1000) payload: string;
}

export class QrCodeDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) asset_id: string;
  @ApiProperty() asset_code: string;
  @ApiProperty({ description: 'The signed token the QR code holds.' }) payload: string;
  @ApiProperty({ description: 'Printable SVG image of the QR code.' }) svg: string;
  @ApiProperty() created_at: string;
}

export class QrVerificationDto {
  @ApiProperty({ format: 'uuid' }) qr_code_id: string;
  @ApiProperty({ type: AssetDto }) asset: AssetDto;
  @ApiPropertyOptional({ nullable: true, type: Object, description: 'The asset\'s current order, if any.' }) current_order: Record<string, unknown> | null;
}

const PREFIX = 'HQ1';
const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/**
 * QR codes for assets. The code holds `HQ1.<claims>.<signature>`: base64url JSON claims (QR code,
 * asset and company ids) signed with HMAC-SHA256 under the server secret (a purpose-bound key, so the
 * token is never a valid bearer token and vice versa).
 */
@Injectable()
export class QrCodesService {
  private readonly key: Buffer;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly codes: QrCodeRepository,
    private readonly assets: AssetsService,
    config: AppConfig,
  ) {
    this.key = createHmac('sha256', config.jwtSecret).update('haulops:qr-code:v1').digest();
  }

  private sign(body: string): string {
    return b64(createHmac('sha256', this.key).update(`${PREFIX}.${body}`).digest());
  }

  payloadOf(qr: QrCode): string {
    const body = b64(JSON.stringify({ q: qr.id, a: qr.assetId, c: qr.companyId }));
    return `${PREFIX}.${body}.${this.sign(body)}`;
  }

  /** The QR code id a genuine payload names, or null. */
  private read(payload: string): { q: string; a: string; c: string } | null {
    const [prefix, body, signature, ...rest] = payload.trim().split('.');
    if (prefix !== PREFIX || !body || !signature || rest.length) return null;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      return isUuid(claims?.q) && isUuid(claims?.a) && isUuid(claims?.c) ? claims : null;
    } catch {
      return null;
    }
  }

  private async dto(qr: QrCode, asset: AssetDto): Promise<QrCodeDto> {
    const payload = this.payloadOf(qr);
    // Loaded at the first image (57 modules; most processes never draw one).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const QRCode = require('qrcode') as typeof import('qrcode');
    const svg = await QRCode.toString(payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { id: qr.id, asset_id: qr.assetId, asset_code: asset.code, payload, svg, created_at: qr.createdAt.toISOString() };
  }

  async create(actor: Actor, scope: Scope, dto: CreateQrCodeDto): Promise<QrCodeDto> {
    const [qr, asset] = await this.uow.transaction(async (m) => {
      const asset = await this.assets.get(scope, dto.asset_id).catch((e) => {
        throw e instanceof ApiError && e.code === 'NOT_FOUND' ? ApiError.validation({ asset_id: ['not found'] }) : e;
      });
      const qr = await this.codes.insert(scope, asset.id, actor.id);
      await recordEvents(m, { type: 'qr_code.created', aggregateType: 'asset', aggregateId: asset.id, companyId: scope.companyId, actorId: actor.id, payload: { qr_code_id: qr.id } });
      return [qr, asset] as const;
    });
    return this.dto(qr, asset);
  }

  async show(scope: Scope, id: string): Promise<QrCodeDto> {
    const qr = await this.codes.find(scope, id);
    return this.dto(qr, await this.assetOf(qr));
  }

  /** A genuine code of a live asset of the caller's company, read by a company user or driver; 404 otherwise. */
  async verify(actor: Actor, payload: string): Promise<QrVerificationDto> {
    const claims = this.read(payload);
    const scope = Scope.of(actor);
    if (!claims || claims.c !== scope.companyId || scope.kind === 'customer') throw ApiError.notFound('QR code');
    const qr = await this.codes.find(scope, claims.q);
    // Orders do not exist yet: the current order is null until the orders module provides it.
    return { qr_code_id: qr.id, asset: await this.assetOf(qr), current_order: null };
  }

  /**
   * The asset a scanned code names, for dispatch (a driver's QR-scan evidence): the asset id when the
   * payload is a genuine code of the company that still exists, else null (forged, altered, another
   * company's, deleted). One statement.
   */
  async assetIdOf(scope: Scope, payload: string): Promise<string | null> {
    const claims = this.read(payload);
    if (!claims || claims.c !== scope.companyId) return null;
    return this.codes.assetIdOf(scope, claims.q);
  }

  /** The code's asset; a deleted asset makes the code unknown (404). */
  private assetOf(qr: QrCode): Promise<AssetDto> {
    return this.assets.get(Scope.company(qr.companyId), qr.assetId).catch((e) => {
      throw e instanceof ApiError && e.code === 'NOT_FOUND' ? ApiError.notFound('QR code') : e;
    });
  }
}

@ApiTags('QR codes')
@Controller('api/v1/qr-codes')
export class QrCodesController {
  constructor(private readonly qr: QrCodesService) {}

  @Post()
  @Access('CO')
  @Endpoint({ summary: 'Make a printable QR code for an asset', type: QrCodeDto, status: 201, errors: [422] })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreateQrCodeDto) {
    return this.qr.create(actor, scope, dto);
  }

  @Post('verify')
  @Access('TOK')
  @Endpoint({
    summary: 'Read a scanned QR code: the asset and its current order',
    description: 'For a company user or driver of the asset\'s company; anything else (another company, a customer, a forged or altered code) is 404.',
    type: QrVerificationDto,
    errors: [404, 422],
    codes: { 403: ['NO_COMPANY'] },
  })
  verify(@CurrentActor() actor: Actor, @Body() dto: VerifyQrCodeDto) {
    return this.qr.verify(actor, dto.payload);
  }

  @Get(':qrCode')
  @Access('CO')
  @Endpoint({ summary: 'Show a QR code (payload and SVG image)', type: QrCodeDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('qrCode') id: string) {
    return this.qr.show(scope, id);
  }
}

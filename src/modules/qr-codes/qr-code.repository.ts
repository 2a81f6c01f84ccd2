import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { findScoped } from '../../common/access/tenant-policy';
import { ModuleRepository } from '../../database/repository';
import { QrCode } from './qr-code.entity';

/** The `qr_codes` table: the module's only SQL (docs/data-layer.md). */
@Injectable()
export class QrCodeRepository extends ModuleRepository {
  /** A new code of the scope's company for an asset. */
  insert(scope: Scope, assetId: string, createdBy: string | null): Promise<QrCode> {
    return this.m.save(this.m.create(QrCode, { companyId: scope.companyId, assetId, createdBy }));
  }

  /** A code the scope reaches, else 404. */
  find(scope: Scope, id: string): Promise<QrCode> {
    return findScoped(this.m, QrCode, scope, id, { what: 'QR code' });
  }

  /** The asset of the scope's company's code `id`, or null. One statement. */
  async assetIdOf(scope: Scope, id: string): Promise<string | null> {
    const qr = await this.m.findOne(QrCode, { select: { id: true, assetId: true }, where: { id, companyId: scope.companyId } });
    return qr?.assetId ?? null;
  }
}

import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue';
import { QrCodeRepository } from './qr-code.repository';
import { QrCodesController, QrCodesService } from './qr-codes';

/** QR codes for assets: make, show, verify a scan. */
@Module({ imports: [CatalogueModule], controllers: [QrCodesController], providers: [QrCodesService, QrCodeRepository], exports: [QrCodesService] })
export class QrCodesModule {}

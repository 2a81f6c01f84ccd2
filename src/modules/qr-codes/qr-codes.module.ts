import { Module } from '@nestjs/common';
import { QrCodesController, QrCodesService } from './qr-codes';

/** QR codes for assets: make, show, verify a scan. */
@Module({ controllers: [QrCodesController], providers: [QrCodesService] })
export class QrCodesModule {}

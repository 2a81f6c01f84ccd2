/** What other modules may use of QR codes (never the entity). */
export { QrCodesModule } from './qr-codes.module';
export { QrCodesService } from './qr-codes';

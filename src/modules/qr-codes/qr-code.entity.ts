import { Column, Entity } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';

/** A printable QR code for an asset; the code holds a signed token naming this row. */
@Entity('qr_codes')
export class QrCode extends BaseEntity {
  @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'uuid' }) assetId: string;
  @Column({ type: 'uuid', nullable: true }) createdBy: string | null;
}

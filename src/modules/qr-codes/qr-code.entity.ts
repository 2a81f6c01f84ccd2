import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';
import { Tenant } from '../../common/access/tenant-policy';

/** A printable QR code for an asset; the code holds a signed token naming this row. */
@Tenant()
@Entity('qr_codes')
export class QrCode extends BaseEntity {
  @Index('idx_qr_codes_company_id')
  @ForeignKey('companies', { name: 'qr_codes_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;

  @Index('idx_qr_codes_asset_id')
  @ForeignKey('assets', { name: 'qr_codes_asset_id_fkey' })
  @Column({ type: 'uuid' })
  assetId: string;

  @Index('idx_qr_codes_created_by')
  @ForeignKey('users', { name: 'qr_codes_created_by_fkey' })
  @Column({ type: 'uuid', nullable: true })
  createdBy: string | null;
}

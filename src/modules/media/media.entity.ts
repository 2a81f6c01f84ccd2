import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An uploaded file (`POST /upload-media`), served at `/api/v1/media/{id}`. Not company-owned: uploads need no token. */
@Entity('media')
@Check('media_storage_check', `storage IN ('local', 's3')`)
@Check('media_mime_type_check', `mime_type IN ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')`)
@Check('media_size_bytes_check', `size_bytes > 0`)
@Index('idx_media_uploader_ip', ['uploaderIp', 'createdAt'])
export class Media {
  /** Defaults to gen_random_uuid(); the upload sets it itself (it names the stored file). */
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Which storage holds it (`local`; `s3` reserved for S3-compatible storage). */
  @Column({ type: 'text', default: 'local' })
  storage: string;

  /** The storage key (`<uuid>.<ext>`). */
  @Column({ type: 'text' })
  path: string;

  @Column({ type: 'text' })
  mimeType: string;

  @Column({ type: 'int' })
  sizeBytes: number;

  @Column({ type: 'char', length: 64 })
  sha256: string;

  @Column({ type: 'text', nullable: true })
  originalName: string | null;

  @Column({ type: 'text', nullable: true })
  uploaderIp: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** An uploaded file (`POST /upload-media`), served at `/api/v1/media/{id}`. Not company-owned: uploads need no token. */
@Entity('media')
export class Media {
  @PrimaryColumn({ type: 'uuid' })
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

import { Injectable } from '@nestjs/common';
import { ModuleRepository } from '../../database/repository';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { Media } from './media.entity';

/** The `media` table: the module's only SQL (docs/data-layer.md). */
@Injectable()
export class MediaRepository extends ModuleRepository {
  @GenerateSql({ params: [{ id: SQL_SAMPLE.id, storage: 'local', path: `${SQL_SAMPLE.id}.png`, mimeType: 'image/png', sizeBytes: 68, sha256: '0'.repeat(64), originalName: 'a.png', uploaderIp: '127.0.0.1' }] })
  async insert(values: Pick<Media, 'id' | 'storage' | 'path' | 'mimeType' | 'sizeBytes' | 'sha256' | 'originalName' | 'uploaderIp'>): Promise<void> {
    await this.m.getRepository(Media).insert(values);
  }

  find(id: string): Promise<Media | null> {
    return this.m.getRepository(Media).findOneBy({ id });
  }

  exists(id: string): Promise<boolean> {
    return this.m.existsBy(Media, { id });
  }
}

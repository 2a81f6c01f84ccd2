import { Module } from '@nestjs/common';
import { join } from 'node:path';
import { AppConfig } from '../../config/app-config';
import { MediaController } from './media.controller';
import { MediaService } from './media.service';
import { LocalDiskStorage, MediaStorage } from './media-storage';

@Module({
  controllers: [MediaController],
  providers: [MediaService, { provide: MediaStorage, useFactory: (c: AppConfig) => new LocalDiskStorage(join(c.dataDir, 'uploads')), inject: [AppConfig] }],
  exports: [MediaService],
})
export class MediaModule {}

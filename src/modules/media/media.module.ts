import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { MediaController } from './media.controller';
import { MediaRepository } from './media.repository';
import { MediaService } from './media.service';
import { MediaStorage, mediaStorage } from './media-storage';

@Module({
  controllers: [MediaController],
  providers: [MediaService, MediaRepository, { provide: MediaStorage, useFactory: mediaStorage, inject: [AppConfig] }],
  exports: [MediaService],
})
export class MediaModule {}

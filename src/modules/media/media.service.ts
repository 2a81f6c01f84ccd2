import { Injectable, StreamableFile } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { ApiError } from '../../common/http/api-error';
import { MediaDto } from './media.dto';
import { MediaRepository } from './media.repository';
import { MediaStorage } from './media-storage';
import { EXT_BY_MIME, MediaType, sniffMediaType } from './media-type';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** What the multipart parser hands over (multer's memory storage). */
export interface UploadedMedia {
  buffer: Buffer;
  size: number;
  originalname?: string;
}

@Injectable()
export class MediaService {
  constructor(
    private readonly media: MediaRepository,
    private readonly storage: MediaStorage,
  ) {}

  async upload(file: UploadedMedia | undefined, uploaderIp: string | null): Promise<MediaDto> {
    if (!file || !file.buffer?.length) throw ApiError.validation({ file: ['is required'] });
    if (file.size > MAX_UPLOAD_BYTES) throw new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The file is larger than 10 MB.');
    const type = sniffMediaType(file.buffer);
    if (!type) throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Only JPEG, PNG, WebP and PDF files are accepted.');
    const id = randomUUID();
    const key = `${id}.${type.ext}`;
    await this.storage.put(key, file.buffer, type.mime);
    try {
      await this.media.insert({
        id,
        storage: this.storage.kind,
        path: key,
        mimeType: type.mime,
        sizeBytes: file.size,
        sha256: createHash('sha256').update(file.buffer).digest('hex'),
        originalName: file.originalname ? file.originalname.slice(0, 255) : null,
        uploaderIp: uploaderIp?.slice(0, 64) ?? null,
      });
    } catch (e) {
      await this.storage.remove(key).catch(() => undefined);
      throw e;
    }
    return { id, url: `/api/v1/media/${id}`, type: type.mime, size: file.size };
  }

  /** Whether an upload exists (other modules attach uploads by id: job evidence). */
  exists(id: string): Promise<boolean> {
    return this.media.exists(id);
  }

  async serve(id: string): Promise<StreamableFile> {
    const media = await this.media.find(id);
    const stream = media ? await this.storage.get(media.path) : null;
    if (!media || !stream) throw ApiError.notFound('Media');
    const ext = EXT_BY_MIME[media.mimeType as MediaType['mime']];
    return new StreamableFile(stream, { type: media.mimeType, length: media.sizeBytes, disposition: `inline; filename="${media.id}.${ext}"` });
  }
}

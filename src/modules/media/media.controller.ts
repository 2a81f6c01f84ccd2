import { Controller, Get, Header, Post, UploadedFile, UseGuards, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { Access } from '../../common/access/access.decorator';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ApiErrors, Endpoint } from '../../common/http/openapi';
import { ThrottleGuard } from '../../common/throttle/throttle.guard';
import { ClientIp } from './client-ip';
import { MediaDto } from './media.dto';
import { MAX_UPLOAD_BYTES, MediaService, UploadedMedia } from './media.service';

/** Uploads per client address per minute (the route has no access rule, so it is guarded by this, size and type). */
export const UPLOADS_PER_MINUTE = 20;

@ApiTags('Media')
@Controller('api/v1')
export class MediaController {
  constructor(private readonly media: MediaService) {}

  @Post('upload-media')
  @Access('NONE')
  @UseGuards(ThrottleGuard)
  @Throttle({ default: { limit: UPLOADS_PER_MINUTE, ttl: 60_000 } })
  @UseInterceptors(FileInterceptor('file', { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 0, parts: 1 } }))
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary', description: 'JPEG, PNG, WebP or PDF (by content), at most 10 MB.' } } } })
  @Endpoint({
    summary: 'Upload a file (JPEG, PNG, WebP or PDF, at most 10 MB)',
    description:
      `Multipart field \`file\`. The type is detected from the content, not the client's claim (415 otherwise); over 10 MB is 413; ` +
      `no file is 422. ${UPLOADS_PER_MINUTE} uploads a minute per client address (429). The returned \`url\` serves the file without a token.`,
    type: MediaDto,
    status: 201,
    errors: [400, 413, 415, 422, 429],
    codes: { 400: ['BAD_REQUEST'], 422: ['VALIDATION_FAILED'] },
  })
  upload(@UploadedFile() file: UploadedMedia | undefined, @ClientIp() ip: string | null) {
    return this.media.upload(file, ip);
  }

  @Get('media/:media')
  @Access('NONE')
  @ApiIdParam('media')
  @Header('X-Content-Type-Options', 'nosniff')
  @Header('Cache-Control', 'public, max-age=31536000, immutable')
  @ApiOperation({ summary: 'An uploaded file (extension: serves the `url` of /upload-media)' })
  @ApiResponse({
    status: 200,
    description: 'The file, with its detected Content-Type.',
    content: Object.fromEntries(['image/jpeg', 'image/png', 'image/webp', 'application/pdf'].map((t) => [t, { schema: { type: 'string', format: 'binary' } }])),
  })
  @ApiErrors({ 404: [] })
  show(@IdParam('media') id: string) {
    return this.media.serve(id);
  }
}

import { Controller, Get, Header, StreamableFile, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { Access } from '../../common/access/access.decorator';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ApiErrors } from '../../common/http/openapi';
import { ThrottleGuard } from '../../common/throttle/throttle.guard';
import { OrderDocumentService } from './order-document.service';

/**
 * Downloads of order documents per client address per minute. The route has no access rule (the
 * order's random UUID is the only key), so this bounds both guessing and PDF rendering per address,
 * while leaving room for a real office behind one address opening or printing a few dozen orders.
 * Counted like the media upload limit: ThrottleGuard, per client address (req.ip, TRUST_PROXY) per
 * route, in Redis when REDIS_URL is set; every request counts, a 404 as well.
 */
export const ORDER_DOWNLOADS_PER_MINUTE = 30;

@ApiTags('Orders (public)')
@Controller('api/public')
export class OrderDocumentController {
  constructor(private readonly documents: OrderDocumentService) {}

  @Get('order/:orderId/download')
  @Access('NONE')
  @UseGuards(ThrottleGuard)
  @Throttle({ default: { limit: ORDER_DOWNLOADS_PER_MINUTE, ttl: 60_000 } })
  @ApiIdParam('orderId', 'The order\'s UUID (not its number): the link is the only key to the document.')
  @Header('Cache-Control', 'private, no-store')
  @Header('X-Content-Type-Options', 'nosniff')
  @Header('X-Robots-Tag', 'noindex, nofollow')
  @ApiOperation({
    summary: 'The order\'s PDF: summary, bill lines and totals, payments, status history',
    description:
      'No token: reachable only by the order\'s UUID; an unknown or malformed id is 404 (JSON error envelope). ' +
      `Served inline as \`ORD-000042.pdf\`, \`Cache-Control: private, no-store\`. ` +
      `${ORDER_DOWNLOADS_PER_MINUTE} requests a minute per client address (429 with \`Retry-After\` and \`X-RateLimit-*\`).`,
  })
  @ApiResponse({ status: 200, description: 'The PDF, `Content-Disposition: inline; filename="ORD-000042.pdf"`.', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } })
  @ApiErrors({ 404: [], 429: [] })
  async download(@IdParam('orderId') id: string): Promise<StreamableFile> {
    const { filename, pdf } = await this.documents.render(id);
    return new StreamableFile(pdf, { type: 'application/pdf', length: pdf.length, disposition: `inline; filename="${filename}"` });
  }
}

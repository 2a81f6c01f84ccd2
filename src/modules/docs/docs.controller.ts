import { Controller, Get, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Access } from '../../common/access/access.decorator';

const swaggerUiDir = (): string => join(createRequire(__filename).resolve('swagger-ui-dist/package.json'), '..');

/** The OAuth2 redirect page of the interactive documentation (seed §4.6, access NONE). */
@ApiTags('Documentation')
@Controller('api')
export class DocsController {
  private page?: Buffer;

  @Get('oauth2-callback')
  @Access('NONE')
  @ApiOperation({ summary: 'OAuth2 redirect page of the interactive documentation (an HTML page for browsers)' })
  @ApiResponse({ status: 200, description: 'The HTML page.', content: { 'text/html': { schema: { type: 'string' } } } })
  oauth2Callback(): StreamableFile {
    // swagger-ui's redirect page, with its script inlined (the page is served outside the UI's folder).
    this.page ??= Buffer.from(
      `<!doctype html>\n<html lang="en-US">\n<head><title>Swagger UI: OAuth2 Redirect</title></head>\n<body>\n<script>\n${readFileSync(join(swaggerUiDir(), 'oauth2-redirect.js'), 'utf8')}\n</script>\n</body>\n</html>\n`,
    );
    return new StreamableFile(this.page, { type: 'text/html; charset=utf-8' });
  }
}

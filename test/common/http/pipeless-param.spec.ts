import { ArgumentMetadata, Body, Controller, createParamDecorator, INestApplication, PipeTransform, Post } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { CallerProfile, CurrentActor } from '../../../src/common/access/actor';
import { pipelessParam } from '../../../src/common/http/pipeless-param';

/** src/common/http/pipeless-param.ts: a pipeless parameter gets no pipe; every other parameter is piped as before. */
const Caller = pipelessParam((data, req: { path: string }) => ({ caller: 'from the request', data, path: req.path }));
const Piped = createParamDecorator(() => 'piped custom');

const seen: string[] = [];
class RecordingPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    seen.push(`${metadata.type}:${JSON.stringify(value)}`);
    return metadata.type === 'body' ? { ...(value as object), piped: true } : value;
  }
}

@Controller('probe/caller')
class CallerController {
  @Post()
  probe(@CurrentActor() actor: unknown, @CallerProfile() profile: unknown, @Body() body: unknown) {
    return { actor, profile, body };
  }
}

@Controller('probe')
class ProbeController {
  @Post()
  probe(@Caller('x') caller: unknown, @Body() body: unknown, @Piped() piped: unknown) {
    return { caller, body, piped };
  }
}

describe('pipeless parameters', () => {
  let app: INestApplication;
  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ controllers: [CallerController, ProbeController] }).compile();
    app = moduleRef.createNestApplication();
    app.useGlobalPipes(new RecordingPipe());
    await app.init();
  });
  afterAll(() => app.close());

  it('hands the factory\'s value over without the global pipe, and pipes the body and other custom parameters', async () => {
    seen.length = 0;
    const r = await request(app.getHttpServer()).post('/probe').send({ a: 1 }).expect(201);
    expect(r.body).toEqual({ caller: { caller: 'from the request', data: 'x', path: '/probe' }, body: { a: 1, piped: true }, piped: 'piped custom' });
    expect(seen.sort()).toEqual(['body:{"a":1}', 'custom:"piped custom"']);
  });

  it('the app\'s caller decorators are pipeless', async () => {
    seen.length = 0;
    const r = await request(app.getHttpServer()).post('/probe/caller').send({ b: 2 }).expect(201);
    expect(r.body).toEqual({ body: { b: 2, piped: true } });
    expect(seen).toEqual(['body:{"b":2}']);
  });
});

import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { DataSource } from 'typeorm';
import { Access } from '../../src/common/access/access.decorator';
import { ACCESS_CODES, AccessCode } from '../../src/common/access/access-codes';
import { Actor, CurrentActor } from '../../src/common/access/actor';
import { Idempotent } from '../../src/common/idempotency/idempotent';
import { runUnit } from '../../src/database/unit-of-work';
import { recordEvents } from '../../src/common/outbox/outbox';

// The probe's test-only event, added to the catalogue for the tests' compilation only.
declare module '../../src/common/outbox/event-catalogue' {
  interface EventCatalogue {
    'test.charged': { reference: string; amount: number };
  }
}

/**
 * Test-only routes under /test/*: one per access code, one without a code (default deny), and an
 * idempotent money-like route. Mounted only by tests that pass this module to startTestApp.
 */
const probes: Record<string, (...args: never[]) => unknown> = {};

class ChargeDto {
  @IsString() reference: string;
  @IsInt() amount: number;
  /** Test-only: how long the charge takes (ms), to observe a request in flight. */
  @IsOptional() @IsInt() @Min(0) @Max(5000) delay_ms?: number;
}

// Test-only: outside the OpenAPI document (the response validator skips /test/* explicitly).
@ApiExcludeController()
@Controller('test')
class ProbeController {
  constructor(private readonly ds: DataSource) {}

  @Get('undeclared')
  undeclared() {
    return { reached: true };
  }

  @Post('charges')
  @Access('TOK')
  @Idempotent()
  async charge(@CurrentActor() actor: Actor, @Body() dto: ChargeDto) {
    // runUnit: with an Idempotency-Key, a savepoint of the request's transaction (which stores the answer with it).
    return runUnit(this.ds, async (m) => {
      const [row] = await m.query(`SELECT count(*)::int AS n FROM outbox_events WHERE type = 'test.charged'`);
      await recordEvents(m, { type: 'test.charged', aggregateType: 'user', aggregateId: actor.id, actorId: actor.id, payload: { reference: dto.reference, amount: dto.amount } });
      if (dto.delay_ms) await new Promise((r) => setTimeout(r, dto.delay_ms));
      if (dto.amount < 0) throw new Error('negative amount: rolls the event back');
      return { charge_number: row.n + 1, amount: dto.amount };
    });
  }
}

// One GET /test/access/<code> route per access code, each answering with the caller.
for (const code of ACCESS_CODES) {
  const name = `probe_${code.replace('-', '_')}`;
  probes[name] = function (this: unknown, actor?: Actor) {
    return { code, actor: actor ? { id: actor.id, type: actor.type } : null };
  };
  const descriptor = { value: probes[name], writable: true, configurable: true };
  Object.defineProperty(ProbeController.prototype, name, descriptor);
  CurrentActor()(ProbeController.prototype, name, 0);
  Get(`access/${code}`)(ProbeController.prototype, name, descriptor);
  Access(code as AccessCode)(ProbeController.prototype, name, descriptor);
}

@Module({ controllers: [ProbeController] })
export class ProbeModule {}

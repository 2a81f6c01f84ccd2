import { ArgumentMetadata } from '@nestjs/common';
import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import * as classValidator from 'class-validator';
import { validationPipe } from '../../../src/common/http/validation';

/** The app's ValidationPipe keeps only the verdict that an empty instance of a class passes (src/common/http/validation.ts). */
class AllOptional {
  @IsOptional() @IsInt() @Min(1) page?: number;
  @IsOptional() @IsString() q?: string;
}
class OneRequired {
  @IsString() name!: string;
  @IsOptional() @IsString() note?: string;
}
class WithDefault {
  @IsOptional() @IsInt() @Min(5) limit: number = 1;
}
const query = (metatype: new () => object): ArgumentMetadata => ({ type: 'query', metatype, data: undefined });

describe('validationPipe: verdicts on empty input', () => {
  afterEach(() => jest.restoreAllMocks());

  it('validates an empty instance of a class once when it passes, and answers the same afterwards', async () => {
    const validate = jest.spyOn(classValidator, 'validate');
    const calls = () => validate.mock.calls.filter(([o]) => Object.getPrototypeOf(o) === AllOptional.prototype).length;
    const first = await validationPipe.transform({}, query(AllOptional));
    const second = await validationPipe.transform({}, query(AllOptional));
    expect(first).toBeInstanceOf(AllOptional);
    expect(second).toBeInstanceOf(AllOptional);
    expect(second).not.toBe(first);
    expect(calls()).toBeLessThanOrEqual(1);
    // Input that is not empty is validated as always.
    await expect(validationPipe.transform({ page: 0 }, query(AllOptional))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(validationPipe.transform({ extra: 1 }, query(AllOptional))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('an empty instance that fails fails every time, with its errors', async () => {
    for (let i = 0; i < 3; i++) {
      await expect(validationPipe.transform({}, query(OneRequired))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: { name: ['is required'] } });
    }
  });

  it('a class that sets a default is not empty: its default is validated every time', async () => {
    for (let i = 0; i < 3; i++) {
      await expect(validationPipe.transform({}, query(WithDefault))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });
});

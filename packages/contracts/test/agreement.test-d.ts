import { expectTypeOf, test } from 'vitest';
import type { z } from 'zod';
import type { components as Api } from '../src/generated/api/types.ts';
import type { components as Connector } from '../src/generated/connector/types.ts';
import type { components as Events } from '../src/generated/events/types.ts';
import type * as apiZod from '../src/generated/api/zod.gen.ts';
import type * as connectorZod from '../src/generated/connector/zod.gen.ts';
import type * as eventsZod from '../src/generated/events/zod.gen.ts';

/** Exact type equality (not mere assignability either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** The schemas whose zod validator accepts a different wire shape (its input type) than openapi-typescript describes. */
type Disagreements<Schemas, Zod> = {
  [K in keyof Schemas & string]: `z${K}` extends keyof Zod
    ? Zod[`z${K}`] extends z.ZodType
      ? Equal<z.input<Zod[`z${K}`]>, Schemas[K]> extends true ? never : K
      : K
    : K;
}[keyof Schemas & string];

test('every public API schema: zod and openapi-typescript agree', () => {
  expectTypeOf<Disagreements<Api['schemas'], typeof apiZod>>().toEqualTypeOf<never>();
});

test('every connector protocol schema: zod and openapi-typescript agree', () => {
  expectTypeOf<Disagreements<Connector['schemas'], typeof connectorZod>>().toEqualTypeOf<never>();
});

test('every stream event schema: zod and openapi-typescript agree', () => {
  expectTypeOf<Disagreements<Events['schemas'], typeof eventsZod>>().toEqualTypeOf<never>();
});

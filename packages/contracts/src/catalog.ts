/**
 * The error and settlement code catalogs alone, without the zod validators: what a client needs at
 * runtime to branch on codes and follow the retry guidance, at a fraction of the size.
 */
export * from './generated/catalog.ts';

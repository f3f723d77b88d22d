/**
 * The code catalogs and the command table alone, without the zod validators: what a client needs
 * at runtime to branch on codes, follow the retry guidance and know a command's routing path, at
 * a fraction of the size.
 */
export * from './generated/catalog.ts';
export * from './commands.ts';

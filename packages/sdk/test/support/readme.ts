/**
 * The README's TypeScript blocks as a reader uses them: each pasted, as it is, into a module of
 * its own in the README's ESM setup (`npm pkg set type=module`, `tsc --init --types node`: strict,
 * exactOptionalPropertyTypes, module nodenext) of a project that depends on @switchboard/sdk.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

const sdk = resolve(import.meta.dirname, '../..');

/** A ```ts block of the README: its code, and the README line its first line of code is on. */
export interface ReadmeBlock {
  code: string;
  line: number;
}

/** Every ```ts block of the SDK's README, in order. */
export function readmeBlocks(readme = readFileSync(join(sdk, 'README.md'), 'utf8')): ReadmeBlock[] {
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((match) => ({
    code: match[1]!,
    line: readme.slice(0, match.index).split('\n').length + 1,
  }));
}

/** The path of the `tsc` of the workspace's TypeScript. */
export function workspaceTsc(): string {
  return join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin/tsc');
}

/** What `tsc --init --types node` writes (the README's setup), as compiler options. */
export function initOptions(): ts.CompilerOptions {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-tsc-init-'));
  try {
    execFileSync(process.execPath, [workspaceTsc(), '--init', '--types', 'node'], { cwd: dir, stdio: 'ignore' });
    const { config, error } = ts.readConfigFile(join(dir, 'tsconfig.json'), ts.sys.readFile);
    if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
    const { options, errors } = ts.convertCompilerOptionsFromJson((config as { compilerOptions: unknown }).compilerOptions, dir);
    if (errors.length > 0) throw new Error(errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, '\n')).join('\n'));
    return options;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Type-checks each block alone, as a module of its own, against the SDK's source: the blocks are
 * files of this package (never written to disk), so `@switchboard/sdk` resolves through the
 * package's own exports to src/. Answers one line per error in a block (none when all compile).
 */
export function typecheckBlocks(blocks: ReadmeBlock[], options: ts.CompilerOptions = initOptions()): string[] {
  const files = new Map(blocks.map((block, i) => [join(sdk, 'test', `readme-block-${i + 1}.ts`), block]));
  const compilerOptions: ts.CompilerOptions = { ...options, noEmit: true, declaration: false, declarationMap: false, sourceMap: false };
  const host = ts.createCompilerHost(compilerOptions);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (name) => files.has(resolve(name)) || fileExists.call(host, name);
  host.readFile = (name) => files.get(resolve(name))?.code ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const block = files.get(resolve(name));
    return block ? ts.createSourceFile(name, block.code, language) : getSourceFile.call(host, name, language, ...rest);
  };
  const program = ts.createProgram([...files.keys()], compilerOptions, host);
  const problems = program.getOptionsDiagnostics().map((d) => `options: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  for (const [name, block] of files) {
    const source = program.getSourceFile(name)!;
    for (const diagnostic of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const { line } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      const code = block.code.split('\n')[line]?.trim();
      problems.push(`README.md:${block.line + line}: TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}\n    ${code}`);
    }
  }
  return problems;
}

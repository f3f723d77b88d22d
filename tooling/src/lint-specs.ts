// Lints the OpenAPI specs with Redocly and with Spectral's OWASP ruleset (src/owasp-ruleset.ts),
// validates the AsyncAPI spec with @asyncapi/parser and checks that the code lists both describe
// agree. Exit 1 on any error; warnings only print.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import spectralCore, { type RulesetDefinition } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { adminRuleset, connectorRuleset, publicApiRuleset } from './owasp-ruleset.ts';
import { styleText } from 'node:util';
import { DiagnosticSeverity, Parser } from '@asyncapi/parser';
import { formatProblems, getTotals, lint, loadConfig } from '@redocly/openapi-core';
import { enumOf, oneOfConsts, readYaml, redoclyConfig, repoRoot, schemaOf, specs } from './specs.ts';

type Line = { ok: boolean; text: string };

async function lintOpenApi(): Promise<Line[]> {
  const config = await loadConfig({ configPath: redoclyConfig });
  const lines: Line[] = [];
  for (const file of [specs.api, specs.connector, specs.admin]) {
    const problems = await lint({ ref: file, config }).catch((error: Error) => error);
    if (problems instanceof Error) {
      lines.push({ ok: false, text: `${relative(repoRoot, file)}: ${problems.message}` }); // e.g. a YAML syntax error
      continue;
    }
    const totals = getTotals(problems);
    if (totals.errors + totals.warnings > 0) {
      formatProblems(problems, { format: 'stylish', totals, cwd: repoRoot, maxProblems: 100 });
    }
    lines.push({
      ok: totals.errors === 0,
      text: `${relative(repoRoot, file)}: Redocly ${count(totals.errors, 'error')}, ${count(totals.warnings, 'warning')}` +
        (totals.ignored ? ` (${totals.ignored} ignored on purpose, see .redocly.lint-ignore.yaml)` : ''),
    });
  }
  return lines;
}

/** Spectral with the OWASP ruleset; the ruleset file's path anchors its per-location overrides. */
async function lintOwasp(): Promise<Line[]> {
  const { Document, Ruleset, Spectral } = spectralCore;
  const source = fileURLToPath(new URL('./owasp-ruleset.ts', import.meta.url));
  const lines: Line[] = [];
  for (const [file, definition] of [[specs.api, publicApiRuleset], [specs.connector, connectorRuleset], [specs.admin, adminRuleset]] as Array<[string, RulesetDefinition]>) {
    const spectral = new Spectral();
    spectral.setRuleset(new Ruleset(definition, { source }));
    const results = await spectral.run(new Document(readFileSync(file, 'utf8'), spectralParsers.Yaml, file));
    let errors = 0;
    let warnings = 0;
    for (const r of results) {
      if (r.severity === 0) errors++;
      else if (r.severity === 1) warnings++;
      else continue;
      const where = `${relative(repoRoot, r.source ?? file)}:${r.range.start.line + 1}:${r.range.start.character + 1}`;
      const label = r.severity === 0 ? styleText('red', 'error') : styleText('yellow', 'warning');
      console.log(`  ${where}  ${label}  ${r.code}  ${r.message} (at ${r.path.join('.')})`);
    }
    lines.push({ ok: errors === 0, text: `${relative(repoRoot, file)}: Spectral OWASP ${count(errors, 'error')}, ${count(warnings, 'warning')}` });
  }
  return lines;
}

async function lintAsyncApi(): Promise<Line> {
  const file = specs.events;
  // `source` lets the parser resolve relative $refs against the file.
  const diagnostics = await new Parser().validate(readFileSync(file, 'utf8'), { source: file });
  let errors = 0;
  let warnings = 0;
  for (const d of diagnostics) {
    if (d.severity === DiagnosticSeverity.Error) errors++;
    else if (d.severity === DiagnosticSeverity.Warning) warnings++;
    else continue; // information and hints (e.g. "AsyncAPI 3.1.0 exists") are noise here
    const where = `${relative(repoRoot, file)}:${d.range.start.line + 1}:${d.range.start.character + 1}`;
    const label = d.severity === DiagnosticSeverity.Error ? styleText('red', 'error') : styleText('yellow', 'warning');
    console.log(`  ${where}  ${label}  ${d.code}  ${d.message}${d.path.length ? ` (at ${d.path.join('.')})` : ''}`);
  }
  return { ok: errors === 0, text: `${relative(repoRoot, file)}: AsyncAPI parser ${count(errors, 'error')}, ${count(warnings, 'warning')}` };
}

/** The AsyncAPI spec repeats code lists of the public API; they must not drift apart. */
function checkConsistency(): Line[] {
  const api = readYaml(specs.api);
  const events = readYaml(specs.events);
  const pairs: Array<[string, string[], string[]]> = [
    ['SettlementCode', oneOfConsts(schemaOf(api, 'SettlementCode', specs.api), 'OpenAPI SettlementCode'), enumOf(schemaOf(events, 'SettlementCode', specs.events), 'AsyncAPI SettlementCode')],
    ['CommandType', enumOf(schemaOf(api, 'CommandType', specs.api), 'OpenAPI CommandType'), enumOf(schemaOf(events, 'CommandType', specs.events), 'AsyncAPI CommandType')],
    ['Tapback', enumOf(schemaOf(api, 'Tapback', specs.api), 'OpenAPI Tapback'), enumOf(schemaOf(events, 'Tapback', specs.events), 'AsyncAPI Tapback')],
    ['MessageFailureReason', enumOf(schemaOf(api, 'MessageFailureReason', specs.api), 'OpenAPI MessageFailureReason'), enumOf(schemaOf(events, 'MessageFailureReason', specs.events), 'AsyncAPI MessageFailureReason')],
    ['HoldPolicy', enumOf(schemaOf(api, 'HoldPolicy', specs.api), 'OpenAPI HoldPolicy'), enumOf(schemaOf(events, 'HoldPolicy', specs.events), 'AsyncAPI HoldPolicy')],
  ];
  return pairs.map(([name, openapi, asyncapi]) => {
    if (openapi.join('\n') === asyncapi.join('\n')) return { ok: true, text: `${name}: OpenAPI and AsyncAPI agree (${openapi.length} values)` };
    const missing = openapi.filter((v) => !asyncapi.includes(v));
    const extra = asyncapi.filter((v) => !openapi.includes(v));
    const why = missing.length || extra.length
      ? [missing.length ? `missing from AsyncAPI: ${missing.join(', ')}` : '', extra.length ? `only in AsyncAPI: ${extra.join(', ')}` : ''].filter(Boolean).join('; ')
      : 'same values in a different order';
    return { ok: false, text: `${name}: AsyncAPI ${name} enum differs from the OpenAPI ${name} (${why})` };
  });
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Runs every check, prints a summary and returns whether all passed. */
export async function lintSpecs(): Promise<boolean> {
  const lines = [...(await lintOpenApi()), ...(await lintOwasp()), await lintAsyncApi()];
  try {
    lines.push(...checkConsistency());
  } catch (error) {
    lines.push({ ok: false, text: `consistency check: ${(error as Error).message}` });
  }
  console.log(styleText('bold', '\nSpec lint'));
  for (const { ok, text } of lines) console.log(`  ${ok ? styleText('green', '✔') : styleText('red', '✖')} ${text}`);
  const ok = lines.every((line) => line.ok);
  console.log(ok ? styleText('green', '  All specs pass.\n') : styleText('red', '  Spec lint failed.\n'));
  return ok;
}

if (import.meta.main) process.exitCode = (await lintSpecs()) ? 0 : 1;

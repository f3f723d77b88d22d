import { execFile } from 'node:child_process';

/**
 * Runs `step` in two Node processes at the same instants, `rounds` times `spacingMs` apart, and
 * resolves with every round that threw, as "process/round: message". `imports` is ES module
 * code (import lines) and `step` a statement that may use the round `i` and await.
 */
export async function raceTwoProcesses(imports: string, step: string, rounds: number, spacingMs: number): Promise<string[]> {
  // Far enough ahead for both processes to have started and imported.
  const start = Date.now() + 2_000;
  const script = `${imports}
    const failures = [];
    for (let i = 0; i < ${rounds}; i++) {
      while (Date.now() < ${start} + i * ${spacingMs});
      try { ${step} } catch (error) { failures.push(i + ': ' + error.message); }
    }
    console.log(JSON.stringify(failures));`;
  const run = (name: string) => new Promise<string[]>((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout) => {
      if (error) reject(error);
      else resolve((JSON.parse(stdout) as string[]).map((failure) => `${name}/${failure}`));
    });
  });
  return (await Promise.all([run('a'), run('b')])).flat();
}

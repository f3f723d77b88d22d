// Reads the shell commands a README documents, so tests run (and check) what a reader pastes.

/** One command of a README's ```sh block, continuation lines joined, with the comments about it. */
export interface Step {
  command: string;
  /** The comment lines just before it and its own trailing comment, joined. */
  comment: string;
}

/** The text of the level-2 section `## heading`, its subsections included. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no "## ${heading}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** The commands of every ```sh block in `markdown`, in order. */
function commands(markdown: string): Step[] {
  const steps: Step[] = [];
  for (const [, block] of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) {
    let comments: string[] = [];
    let current: string[] = [];
    for (const line of block!.split('\n')) {
      if (current.length === 0 && /^\s*#/.test(line)) {
        comments.push(line.replace(/^\s*#\s?/, ''));
        continue;
      }
      if (current.length === 0 && !line.trim()) {
        comments = [];
        continue;
      }
      current.push(line);
      if (line.endsWith('\\')) continue;
      const command = current.join('\n');
      // A trailing comment: ` # ...` outside quotes, as the README writes them.
      const trailing = /\s+#\s(.*)$/.exec(line)?.[1] ?? '';
      steps.push({ command, comment: [...comments, trailing].join(' ').trim() });
      comments = [];
      current = [];
    }
  }
  return steps;
}

/** The commands of the README section `## heading`, in order. */
export function commandsOf(markdown: string, heading: string): Step[] {
  return commands(section(markdown, heading));
}

/** Every command a README shows in a ```sh block. */
export function documentedCommands(markdown: string): string[] {
  return commands(markdown).map((step) => step.command);
}

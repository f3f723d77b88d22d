// Reads the shell commands a README documents, so tests run (and check) what a reader pastes.

/** One command of a README's ```sh block, continuation lines joined, with the comments about it. */
export interface Step {
  command: string;
  /** The comment lines just before it and its own trailing comment, joined. */
  comment: string;
}

/** A fenced code block: its language (the info string's first word, '' for none) and its text. */
export interface Block {
  language: string;
  text: string;
}

/** The languages whose blocks hold commands to paste into a shell. */
const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell']);

/**
 * A line a reader would paste into a shell: a program the docs run (npx, pnpm, npm, node, curl,
 * switchboard, ...), maybe after `sudo` or variable assignments, or `source`/`export`.
 */
const SHELL_LINE = /^(?:sudo\s+)?(?:\w+=\S*\s+)*(?:npx|pnpm|npm|node|curl|switchboard|switchboard-connector|source|export|\/\S*\/bin\/switchboard)(?:\s|$)/;

/** The text of the level-2 section `## heading`, its subsections included. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no "## ${heading}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/**
 * Every fenced block of `markdown`, in order, of any language, at any indent (a block in a list
 * item is indented): as CommonMark reads them, the fence's indent is taken off each line.
 */
export function blocks(markdown: string): Block[] {
  const found: Block[] = [];
  let open: { indent: number; fence: string; language: string; lines: string[] } | null = null;
  for (const line of markdown.split('\n')) {
    if (!open) {
      const fence = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/.exec(line);
      if (fence) open = { indent: fence[1]!.length, fence: fence[2]!, language: fence[3]!.toLowerCase(), lines: [] };
      continue;
    }
    const close = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
    if (close && close[1]![0] === open.fence[0] && close[1]!.length >= open.fence.length) {
      found.push({ language: open.language, text: open.lines.join('\n') });
      open = null;
      continue;
    }
    const indent = /^ */.exec(line)![0].length;
    open.lines.push(line.slice(Math.min(indent, open.indent)));
  }
  return found;
}

/** The commands of every shell block (```sh) in `markdown`, in order. */
function commands(markdown: string): Step[] {
  const steps: Step[] = [];
  for (const block of blocks(markdown).filter((b) => SHELL_LANGUAGES.has(b.language))) {
    let comments: string[] = [];
    let current: string[] = [];
    for (const line of `${block.text}\n`.split('\n')) {
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

/**
 * The shell commands a README shows in a block of another language (```text, none): no test
 * would run them. Each should be in a ```sh block.
 */
export function commandsOutsideShellBlocks(markdown: string): string[] {
  return blocks(markdown)
    .filter((b) => !SHELL_LANGUAGES.has(b.language))
    .flatMap((b) => b.text.split('\n').map((line) => line.trim()).filter((line) => SHELL_LINE.test(line)));
}

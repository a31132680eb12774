import { readFileSync } from 'node:fs';

/** One fenced code block of a guide: its language, the rest of its info string, its text. */
export interface GuideBlock {
  language: string;
  label: string;
  code: string;
  /** The line the block starts on, for failure messages. */
  line: number;
}

/** Every fenced code block of a Markdown file, in order. */
export function guideBlocks(path: string): GuideBlock[] {
  const text = readFileSync(path, 'utf8');
  const blocks: GuideBlock[] = [];
  const fence = /^```([^\n]*)\n([\s\S]*?)^```$/gm;
  for (let match = fence.exec(text); match; match = fence.exec(text)) {
    const [language = '', ...label] = (match[1] ?? '').trim().split(/\s+/);
    const line = text.slice(0, match.index).split('\n').length;
    blocks.push({ language, label: label.join(' '), code: match[2] ?? '', line });
  }
  return blocks;
}

/** An example program and the client lines (a ```jsonl try block right after it) it is tried with. */
export interface GuideExample {
  program: GuideBlock;
  tryLines: string[];
}

/** Pairs each program block of `language` with the ```jsonl try block that follows it. */
export function examplesOf(blocks: GuideBlock[], language: string): GuideExample[] {
  return blocks.flatMap((block, index) => {
    if (block.language !== language) return [];
    const next = blocks[index + 1];
    if (next?.language !== 'jsonl' || next.label !== 'try')
      throw new Error(
        `the ${language} block at line ${block.line} has no \`\`\`jsonl try block after it`,
      );
    return [{ program: block, tryLines: next.code.trim().split('\n') }];
  });
}

/** The ids of the requests among the lines, and the answers among the output lines, by id. */
export function answersById(
  tryLines: string[],
  output: string,
): {
  requested: (string | number)[];
  answers: Map<string | number, { result?: unknown; error?: unknown }>;
} {
  const requested = tryLines
    .map((line) => JSON.parse(line) as { id?: string | number; method?: string })
    .filter((message) => message.id !== undefined && message.method !== undefined)
    .map((message) => message.id!);
  const answers = new Map<string | number, { result?: unknown; error?: unknown }>();
  for (const line of output.split('\n').filter((entry) => entry.trim() !== '')) {
    const message = JSON.parse(line) as {
      id?: string | number;
      method?: string;
      result?: unknown;
      error?: unknown;
    };
    if (message.id !== undefined && message.method === undefined) answers.set(message.id, message);
  }
  return { requested, answers };
}

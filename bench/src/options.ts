/** How long and how hard one `pnpm bench` run measures. */
export interface BenchOptions {
  /** Length of one slice of load on one contender. */
  sliceMs: number;
  /** Slices per contender; contenders take turns slice by slice (A B C A B C). */
  rounds: number;
  /** An unmeasured slice per contender before the first round (JIT, pools, connections). */
  warmupMs: number;
  /** The memory check: RSS after `memoryBaseline` requests, then after `memoryRequests`. */
  memoryBaseline: number;
  memoryRequests: number;
  /** Idle legacy HTTP sessions opened for the session-memory check. */
  sessions: number;
  /** Only these scenario ids (all when empty); `memory` names the memory checks. */
  only: string[];
  quick: boolean;
}

const FULL: BenchOptions = {
  sliceMs: 3000,
  rounds: 5,
  warmupMs: 2000,
  memoryBaseline: 10_000,
  memoryRequests: 1_000_000,
  sessions: 10_000,
  only: [],
  quick: false,
};

const QUICK: BenchOptions = {
  ...FULL,
  sliceMs: 1000,
  rounds: 3,
  warmupMs: 1000,
  memoryRequests: 100_000,
  quick: true,
};

const USAGE = `pnpm bench [--quick] [--slice-ms N] [--rounds N] [--warmup-ms N]
           [--memory-requests N] [--sessions N] [--only id,id,...]`;

/** Reads the command line: `--quick` first picks the short preset, other flags override it. */
export function parseOptions(argv: string[]): BenchOptions {
  const options = { ...(argv.includes('--quick') ? QUICK : FULL) };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1] ?? '';
    const number = () => {
      const parsed = Number(value);
      if (!Number.isFinite(parsed) || parsed < 0)
        throw new Error(`${flag} needs a number\n${USAGE}`);
      i++;
      return parsed;
    };
    switch (flag) {
      case '--quick':
      case undefined:
        break;
      case '--slice-ms':
        options.sliceMs = number();
        break;
      case '--rounds':
        options.rounds = number();
        break;
      case '--warmup-ms':
        options.warmupMs = number();
        break;
      case '--memory-requests':
        options.memoryRequests = number();
        break;
      case '--sessions':
        options.sessions = number();
        break;
      case '--only':
        options.only = value.split(',').filter(Boolean);
        i++;
        break;
      default:
        throw new Error(`unknown option ${flag}\n${USAGE}`);
    }
  }
  return options;
}

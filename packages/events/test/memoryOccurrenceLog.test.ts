import { MemoryOccurrenceLog } from '../src/index.js';
import { describeOccurrenceLogContract } from '@rondo/test-support/occurrenceLogContract';

describeOccurrenceLogContract('in memory', async (count) => {
  const log = new MemoryOccurrenceLog();
  return { processes: Array.from({ length: count }, () => log), close: async () => {} };
});

import { MemoryOccurrenceLog } from '../src/index.js';
import { describeOccurrenceLogContract } from '../../../test/support/occurrenceLogContract.js';

describeOccurrenceLogContract('in memory', async (count) => {
  const log = new MemoryOccurrenceLog();
  return { processes: Array.from({ length: count }, () => log), close: async () => {} };
});

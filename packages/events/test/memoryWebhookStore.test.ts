import { MemoryWebhookStore } from '../src/index.js';
import { describeWebhookStoreContract } from '@rondo/test-support/webhookStoreContract';

describeWebhookStoreContract('in memory', async (count) => {
  const store = new MemoryWebhookStore();
  return { processes: Array.from({ length: count }, () => store), close: async () => {} };
});

import { describeContract } from './runContract.js';

// The contract table (scenarios.ts) over stdio: both providers, both eras.
describeContract('stdio');

import { describeContract } from './runContract.js';

// The contract table (scenarios.ts) over http: both providers, both eras.
describeContract('http');

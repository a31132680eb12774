import { describeContract } from './runContract.js';

// The contract table (scenarios.ts) over ws: both providers, both eras.
describeContract('ws');

import { createMemoryWindowCounter } from '../src/memory-window-counter';
import { describeWindowCounterBehaviour } from './window-counter-behaviour';

describeWindowCounterBehaviour('memory', async () => createMemoryWindowCounter());

import { raceWriterPairs } from './lock-order/race.js';

raceWriterPairs(3);

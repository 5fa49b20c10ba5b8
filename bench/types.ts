/** One measured round of a scenario, as bench/load.ts reports it to bench/run.ts. */
export interface Round {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  orders?: number;
  ordersPerSecond?: number;
  rejected?: number;
}

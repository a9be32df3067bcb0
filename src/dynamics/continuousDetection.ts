/**
 * A body's continuous collision mode (bepuphysics2's ContinuousDetection): vocabulary shared by the bounds
 * expansion, the sweeps and the world.
 */

/**
 * Continuous collision modes (bepu `ContinuousDetectionMode`):
 * - Discrete: bounds expanded by velocity only up to the speculative margin; no sweeps.
 * - Passive (the default): bounds expanded by the whole motion; no sweeps.
 * - Continuous: bounds expanded by the whole motion; pairs whose relative motion exceeds the pair margin
 *   are swept to find the time of impact.
 */
export const ContinuousDetectionMode = { Discrete: 0, Passive: 1, Continuous: 2 } as const;
/** One of {@link ContinuousDetectionMode}'s values. */
export type ContinuousDetectionMode = (typeof ContinuousDetectionMode)[keyof typeof ContinuousDetectionMode];

/** A collidable's continuous collision settings. */
export interface ContinuousDetection {
  mode: ContinuousDetectionMode;
  /** Continuous only: the least progress (s) a sweep makes per iteration. Default 1e-3. */
  minimumSweepTimestep: number;
  /** Continuous only: a sweep stops when the impact interval is narrower than this (s). Default 1e-3. */
  sweepConvergenceThreshold: number;
}

/** Factories for {@link ContinuousDetection} values. */
export const ContinuousDetection = {
  discrete(): ContinuousDetection {
    return { mode: ContinuousDetectionMode.Discrete, minimumSweepTimestep: 0, sweepConvergenceThreshold: 0 };
  },
  passive(): ContinuousDetection {
    return { mode: ContinuousDetectionMode.Passive, minimumSweepTimestep: 0, sweepConvergenceThreshold: 0 };
  },
  continuous(minimumSweepTimestep = 1e-3, sweepConvergenceThreshold = 1e-3): ContinuousDetection {
    return { mode: ContinuousDetectionMode.Continuous, minimumSweepTimestep, sweepConvergenceThreshold };
  },
};

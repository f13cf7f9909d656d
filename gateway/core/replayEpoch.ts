import { randomBytes } from 'node:crypto';

/** `replay_epoch`: 32 hex chars chosen at start and renewed on every restart (all watermarks become meaningless). */
export class ReplayEpoch {
  value = ReplayEpoch.fresh();

  renew(): void {
    this.value = ReplayEpoch.fresh();
  }

  private static fresh(): string {
    return randomBytes(16).toString('hex');
  }
}

// The agent's response latency per turn, in wall time: from the end of the phone's speech (its
// last frame sent) to the first audio the agent sends after it. The figure voice-agent teams
// watch most; observational only (the inspector shows it), never in a record, so it may read the
// wall clock (allow-listed by the determinism test).

export class ResponseLatency {
  /** Milliseconds, one per phone turn the agent answered with audio. */
  readonly samples: number[] = [];
  private phoneEndedAt: number | undefined;

  /** The phone's last frame of a turn went out. */
  phoneFinished(): void {
    this.phoneEndedAt = performance.now();
  }

  /** Audio from the agent arrived. */
  agentAudio(): void {
    if (this.phoneEndedAt === undefined) return;
    if (this.samples.length < 1000) this.samples.push(Math.round(performance.now() - this.phoneEndedAt));
    this.phoneEndedAt = undefined;
  }
}

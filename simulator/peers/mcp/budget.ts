// The virtual time budget of one MCP connection test. A test is instantaneous on the global
// virtual clock (a request on a manual clock takes no time), but the fake MCP servers script
// their delays in virtual seconds: each delay a fake server applies to a request of this test
// is spent from the test's budget, in the order the requests arrive. A delay that does not fit
// ends the test with TIMEOUT at once, so no test ever waits in wall time for a scripted delay.
// The fake server knows which test a request belongs to by the client socket's port, which the
// runner binds here when it connects (no marker header reaches customers' servers).

export const DEFAULT_BUDGET_MS = 10_000;

export class TestBudget {
  /** Virtual milliseconds spent by the fake servers' delays so far. */
  spentMs = 0;
  exceeded = false;
  private releasers: (() => void)[] = [];

  constructor(
    readonly limitMs: number,
    private readonly onExceeded: () => void,
  ) {}

  /**
   * Spends `ms` virtual milliseconds (null: never answers). Resolves true when the answer may go
   * out now; resolves false once the test is over when the delay did not fit (drop the answer).
   */
  wait(ms: number | null): Promise<boolean> {
    if (!this.exceeded && ms !== null && this.spentMs + ms < this.limitMs) {
      this.spentMs += ms;
      return Promise.resolve(true);
    }
    if (!this.exceeded) {
      this.exceeded = true;
      this.spentMs = this.limitMs;
      this.onExceeded();
    }
    return new Promise((resolve) => this.releasers.push(() => resolve(false)));
  }

  /** The test is over: held answers are dropped. */
  release(): void {
    const list = this.releasers;
    this.releasers = [];
    for (const r of list) r();
  }
}

/** Maps client socket ports (loopback) to the test that opened them. */
export class BudgetRegistry {
  private byPort = new Map<number, TestBudget>();

  bind(localPort: number | undefined, budget: TestBudget): void {
    if (localPort !== undefined) this.byPort.set(localPort, budget);
  }

  unbindAll(budget: TestBudget): void {
    for (const [port, b] of this.byPort) if (b === budget) this.byPort.delete(port);
  }

  /** The budget of the test whose socket has this remote port, if any. */
  of(remotePort: number | undefined): TestBudget | undefined {
    return remotePort === undefined ? undefined : this.byPort.get(remotePort);
  }
}

// Live sessions and the virtual clock (DESIGN "Time and live sockets"): what a family that holds
// live sockets (the Agent SDK's media streams) needs from the clock's driver, offered by the
// runtime as the service port `liveClock`. It keeps no state.
import type { ClockMode } from './realtime.ts';

export interface LiveClock {
  /** manual, or realtime at a speed (the driver is installed after the families are built: read it when needed). */
  mode(): ClockMode;
  /** Brings virtual time up to wall time in realtime mode (as before each request); nothing in manual mode. */
  sync(): void;
  /** Moves the manual clock forward by `ms`, after the I/O the jobs it runs started (core/advance.ts). */
  advanceBy(ms: number): void;
  /** Reports a defect (a bug) where createSimulator's onDefect says. */
  defect(e: unknown): void;
}

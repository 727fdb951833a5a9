// Usage recorded through the control plane (for meters of slices not simulated yet), kept in
// columns rather than an object per entry: a million recorded entries are a few typed arrays,
// and getUsage scans them without parsing an instant each time. Entries read back (the control
// route, snapshots) are the objects that went in, with the same `at` text.
import { canonicalInstant, iso, parseInstant } from '../../core/clock.ts';
import { Interner } from '../../core/interner.ts';
import { grown } from '../../core/typed-arrays.ts';
import { METERS, type InjectedEntry } from './schema.ts';
import { dayOfText, METER_INDEX, type UsageScan } from './scan.ts';

export class InjectedUsage {
  private readonly accounts = new Interner();
  private readonly numbers = new Interner();
  private readonly links = new Interner();
  private length = 0;
  private account = new Int32Array(16); // maps an entry to its account id (interned)
  private meter = new Uint8Array(16); // its meter's index in METERS
  private quantity = new Float64Array(16);
  private at = new Float64Array(16); // epoch ms
  private day = new Int32Array(16); // UTC day of its `at` text, days since the epoch
  private number = new Int32Array(16); // its number (interned), -1 for null
  private link = new Int32Array(16); // its link (interned), -1 for null
  /** `at` texts not in the canonical form (a hand-written snapshot), kept as given */
  private readonly texts = new Map<number, string>();

  constructor(entries: readonly InjectedEntry[] = []) {
    for (const e of entries) this.push(e);
  }

  push(e: InjectedEntry): void {
    if (this.length === this.meter.length) this.grow();
    const i = this.length++;
    const canonical = canonicalInstant(e.at);
    const at = canonical ?? parseInstant(e.at)!;
    this.account[i] = this.accounts.id(e.accountId);
    this.meter[i] = METER_INDEX.get(e.meter)!;
    this.quantity[i] = e.quantity;
    this.at[i] = at;
    this.day[i] = dayOfText(e.at, at);
    this.number[i] = e.phoneNumber === null ? -1 : this.numbers.id(e.phoneNumber);
    this.link[i] = e.linkId === null ? -1 : this.links.id(e.linkId);
    if (canonical === undefined) this.texts.set(i, e.at);
  }

  /** Every entry in the order recorded (new objects). */
  all(): InjectedEntry[] {
    const out: InjectedEntry[] = [];
    for (let i = 0; i < this.length; i++) out.push(this.entry(i));
    return out;
  }

  /** The account's entries in the order recorded (new objects). */
  of(accountId: string): InjectedEntry[] {
    const a = this.accounts.find(accountId);
    const out: InjectedEntry[] = [];
    for (let i = 0; a !== undefined && i < this.length; i++) if (this.account[i] === a) out.push(this.entry(i));
    return out;
  }

  /** The same store without the account's entries. */
  without(accountId: string): InjectedUsage {
    return new InjectedUsage(this.all().filter((e) => e.accountId !== accountId));
  }

  scan(accountId: string): UsageScan {
    const a = this.accounts.find(accountId);
    return {
      numbers: this.numbers.names,
      links: this.links.names,
      each: (visit) => {
        if (a === undefined) return;
        const { account, meter, quantity, at, day, number, link } = this;
        for (let i = 0; i < this.length; i++) if (account[i] === a) visit(meter[i]!, quantity[i]!, at[i]!, day[i]!, number[i]!, link[i]!);
      },
    };
  }

  private entry(i: number): InjectedEntry {
    const n = this.number[i]!;
    const l = this.link[i]!;
    return {
      accountId: this.accounts.name(this.account[i]!),
      meter: METERS[this.meter[i]!]!,
      quantity: this.quantity[i]!,
      at: this.texts.get(i) ?? iso(this.at[i]!),
      phoneNumber: n < 0 ? null : this.numbers.name(n),
      linkId: l < 0 ? null : this.links.name(l),
    };
  }

  private grow(): void {
    const size = this.length + 1;
    this.account = grown(this.account, size);
    this.meter = grown(this.meter, size);
    this.quantity = grown(this.quantity, size);
    this.at = grown(this.at, size);
    this.day = grown(this.day, size);
    this.number = grown(this.number, size);
    this.link = grown(this.link, size);
  }
}

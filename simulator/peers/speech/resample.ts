// Sample-rate conversion for speech: eSpeak NG speaks at 22.05 kHz, the telephone line carries
// 8 kHz. A windowed-sinc (Blackman) band-limited interpolator with its cut-off below the new
// Nyquist frequency, so the 8 kHz audio has no aliasing. The output instants fall on a repeating
// pattern of input offsets (22050/8000 = 441/160: 160 phases), so each phase's taps are computed
// once per rate pair and the conversion itself is multiply-adds in a fixed order: the same input
// always gives the same output.

/** Taps on each side of the interpolation point, at the narrower of the two rates. */
const HALF_TAPS = 16;
/** Cut-off as a share of the output's Nyquist frequency (keeps the transition band inside it). */
const CUTOFF = 0.9;

function sinc(x: number): number {
  if (x === 0) return 1;
  const px = Math.PI * x;
  return Math.sin(px) / px;
}

function blackman(x: number, half: number): number {
  const n = (x + half) / (2 * half); // x in [-half, half]
  return 0.42 - 0.5 * Math.cos(2 * Math.PI * n) + 0.08 * Math.cos(4 * Math.PI * n);
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

interface Phase {
  /** Input index of the first tap relative to floor(output instant). */
  offset: number;
  taps: Float64Array;
}

const plans = new Map<string, Phase[]>();

/** The taps of each output phase for the rate pair (made once per pair). */
function plan(from: number, to: number): Phase[] {
  const key = `${from}/${to}`;
  const known = plans.get(key);
  if (known) return known;
  const phases = to / gcd(from, to);
  // Downsampling: the filter is stretched so it cuts below the output's Nyquist.
  const scale = Math.min(1, to / from) * CUTOFF;
  const reach = HALF_TAPS / scale;
  const out: Phase[] = [];
  for (let p = 0; p < phases; p++) {
    const x = (p * from) / to;
    const frac = x - Math.floor(x);
    const first = Math.ceil(frac - reach);
    const last = Math.floor(frac + reach);
    const taps = new Float64Array(last - first + 1);
    for (let k = first; k <= last; k++) {
      const d = frac - k;
      taps[k - first] = scale * sinc(d * scale) * blackman(d, reach);
    }
    out.push({ offset: first, taps });
  }
  plans.set(key, out);
  return out;
}

/** The samples at `to` Hz that represent `input` at `from` Hz (integer rates; 16-bit, clipped). */
export function resample(input: Int16Array, from: number, to: number): Int16Array {
  if (from === to) return Int16Array.from(input);
  const phases = plan(from, to);
  const length = Math.floor((input.length * to) / from);
  const out = new Int16Array(length);
  for (let n = 0; n < length; n++) {
    const { offset, taps } = phases[n % phases.length]!;
    const base = Math.floor((n * from) / to) + offset;
    let sum = 0;
    const lo = Math.max(0, -base);
    const hi = Math.min(taps.length, input.length - base);
    for (let k = lo; k < hi; k++) sum += input[base + k]! * taps[k]!;
    out[n] = Math.max(-32768, Math.min(32767, Math.round(sum)));
  }
  return out;
}

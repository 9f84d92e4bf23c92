/**
 * Colours of a website's CSS: parsing the CSS colour forms, telling brand colours from
 * neutrals (greys, near-black, near-white, faint transparencies), and choosing a primary,
 * secondary and accent colour.
 */

export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

// The named colours a site is likely to use as a brand colour; the neutrals are named too,
// so they are recognised (and then set aside) rather than missed.
const NAMED: Record<string, string> = {
  black: '#000000',
  white: '#ffffff',
  gray: '#808080',
  grey: '#808080',
  silver: '#c0c0c0',
  red: '#ff0000',
  crimson: '#dc143c',
  maroon: '#800000',
  orange: '#ffa500',
  orangered: '#ff4500',
  gold: '#ffd700',
  yellow: '#ffff00',
  green: '#008000',
  lime: '#00ff00',
  limegreen: '#32cd32',
  seagreen: '#2e8b57',
  teal: '#008080',
  turquoise: '#40e0d0',
  cyan: '#00ffff',
  aqua: '#00ffff',
  blue: '#0000ff',
  navy: '#000080',
  royalblue: '#4169e1',
  dodgerblue: '#1e90ff',
  steelblue: '#4682b4',
  indigo: '#4b0082',
  purple: '#800080',
  violet: '#ee82ee',
  magenta: '#ff00ff',
  fuchsia: '#ff00ff',
  pink: '#ffc0cb',
  hotpink: '#ff69b4',
  deeppink: '#ff1493',
  tomato: '#ff6347',
  coral: '#ff7f50',
  salmon: '#fa8072',
  brown: '#a52a2a',
  chocolate: '#d2691e',
  tan: '#d2b48c',
  olive: '#808000',
  rebeccapurple: '#663399',
  slateblue: '#6a5acd',
  darkblue: '#00008b',
  darkgreen: '#006400',
  darkred: '#8b0000',
};

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

function channel(token: string, max = 255): number | null {
  const t = token.trim();
  if (t.endsWith('%')) {
    const p = Number(t.slice(0, -1));
    return Number.isFinite(p) ? clamp(Math.round((p / 100) * max), 0, max) : null;
  }
  const n = Number(t);
  return Number.isFinite(n) ? clamp(Math.round(n), 0, max) : null;
}

function alpha(token: string | undefined): number | null {
  if (token === undefined) return 1;
  const t = token.trim();
  if (t.endsWith('%')) {
    const p = Number(t.slice(0, -1));
    return Number.isFinite(p) ? clamp(p / 100, 0, 1) : null;
  }
  const n = Number(t);
  return Number.isFinite(n) ? clamp(n, 0, 1) : null;
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}

/** Parses one CSS colour (hex, rgb(a), hsl(a), a common name); null when it is not one. */
export function parseColor(text: string): Rgba | null {
  const t = text.trim().toLowerCase();
  const named = NAMED[t];
  if (named) return parseColor(named);
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(t)?.[1];
  if (hex) {
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
    const n = (i: number) => Number.parseInt(full.slice(i, i + 2), 16);
    return { r: n(0), g: n(2), b: n(4), a: full.length === 8 ? n(6) / 255 : 1 };
  }
  const fn = /^(rgba?|hsla?)\(([^)]*)\)$/.exec(t);
  if (!fn) return null;
  const parts = (fn[2] as string)
    .replace(/\s*\/\s*/, ',')
    .split(/\s*,\s*|\s+/)
    .filter(Boolean);
  if (parts.length < 3) return null;
  const a = alpha(parts[3]);
  if (a === null) return null;
  if ((fn[1] as string).startsWith('rgb')) {
    const [r, g, b] = parts.slice(0, 3).map((p) => channel(p));
    if (r == null || g == null || b == null) return null;
    return { r, g, b, a };
  }
  const h = Number((parts[0] as string).replace(/deg$/, ''));
  const s = channel(parts[1] as string, 100);
  const l = channel(parts[2] as string, 100);
  if (!Number.isFinite(h) || s == null || l == null) return null;
  const [r, g, b] = hslToRgb(((h % 360) + 360) % 360, s / 100, l / 100);
  return { r, g, b, a };
}

export const toHex = (c: Rgba) => `#${[c.r, c.g, c.b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/** Hue-free colours (greys), near-black, near-white and faint transparencies are not brand colours. */
export function isNeutral(c: Rgba): boolean {
  if (c.a < 0.5) return true;
  const r = c.r / 255;
  const g = c.g / 255;
  const b = c.b / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  return s < 0.15 || l < 0.08 || l > 0.94;
}

/** Perceptual-ish distance (redmean); under ~60 two colours read as the same brand colour. */
export function colorDistance(a: Rgba, b: Rgba): number {
  const rm = (a.r + b.r) / 2;
  const dr = a.r - b.r;
  const dg = a.g - b.g;
  const db = a.b - b.b;
  return Math.sqrt((2 + rm / 256) * dr * dr + 4 * dg * dg + (2 + (255 - rm) / 256) * db * db);
}

const SAME_COLOR = 60;

/** Every colour written in a CSS value (hex, functions, names), in order. */
export function colorsIn(value: string): Rgba[] {
  const out: Rgba[] = [];
  // url(...) and strings hold file names ("blue-bg.png"), not colours.
  const bare = value.replace(/url\([^)]*\)|"[^"]*"|'[^']*'/gi, ' ');
  const re = /#[0-9a-f]{3,8}\b|(?:rgba?|hsla?)\([^)]*\)|\b[a-z]{3,20}\b/gi;
  for (const m of bare.matchAll(re)) {
    const c = parseColor(m[0]);
    if (c) out.push(c);
  }
  return out;
}

export interface ColorSignals {
  /** <meta name="theme-color">. */
  themeColor: string | null;
  /** Custom properties that hold a colour: name (with --) → colour. */
  customProperties: Map<string, Rgba>;
  /** How often each colour is used, custom-property uses counted for their colour. */
  usage: Map<string, number>;
}

export function emptyColorSignals(): ColorSignals {
  return { themeColor: null, customProperties: new Map(), usage: new Map() };
}

/** Records one declaration (`property: value`) of the site's CSS. */
export function recordColorDeclaration(signals: ColorSignals, property: string, value: string): void {
  if (property.startsWith('--')) {
    const c = parseColor(value);
    if (c) signals.customProperties.set(property.toLowerCase(), c);
    return;
  }
  for (const c of colorsIn(value)) {
    const hex = toHex(c);
    if (!isNeutral(c)) signals.usage.set(hex, (signals.usage.get(hex) ?? 0) + 1);
  }
  for (const m of value.matchAll(/var\(\s*(--[\w-]+)/g)) {
    const name = (m[1] as string).toLowerCase();
    signals.usage.set(`var:${name}`, (signals.usage.get(`var:${name}`) ?? 0) + 1);
  }
}

export interface PickedColors {
  primary: string | null;
  secondary: string | null;
  accent: string | null;
  palette: string[];
}

const ROLE_NAMES: Record<'primary' | 'secondary' | 'accent', RegExp> = {
  primary: /(^|-)(primary|brand|main|theme)(-|$)/,
  secondary: /(^|-)secondary(-|$)/,
  accent: /(^|-)(accent|highlight|cta|tertiary)(-|$)/,
};

/**
 * Primary, secondary and accent: a custom property named for the role (--primary, --brand,
 * --secondary, --accent, ...) wins; the primary otherwise comes from theme-color; what is
 * still missing is filled from the most used non-neutral colours, each distinct from those
 * already chosen.
 */
export function pickColors(signals: ColorSignals): PickedColors {
  // Usage per colour, with var(--x) uses credited to --x's colour.
  const counts = new Map<string, number>();
  for (const [k, n] of signals.usage) {
    if (k.startsWith('var:')) {
      const c = signals.customProperties.get(k.slice(4));
      if (c && !isNeutral(c)) counts.set(toHex(c), (counts.get(toHex(c)) ?? 0) + n);
    } else counts.set(k, (counts.get(k) ?? 0) + n);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const palette: Rgba[] = [];
  for (const [hex] of ranked) {
    const c = parseColor(hex) as Rgba;
    if (!palette.some((p) => colorDistance(p, c) < SAME_COLOR)) palette.push(c);
  }

  const chosen: Rgba[] = [];
  const distinct = (c: Rgba) => !chosen.some((x) => colorDistance(x, c) < SAME_COLOR);
  const byRole = (role: keyof typeof ROLE_NAMES): Rgba | null => {
    for (const [name, c] of signals.customProperties) {
      if (ROLE_NAMES[role].test(name.slice(2)) && !isNeutral(c) && distinct(c)) return c;
    }
    return null;
  };
  const fromPalette = () => palette.find((c) => distinct(c)) ?? null;
  const take = (c: Rgba | null) => {
    if (c) chosen.push(c);
    return c ? toHex(c) : null;
  };
  const theme = signals.themeColor ? parseColor(signals.themeColor) : null;
  const primary = take(byRole('primary') ?? (theme && !isNeutral(theme) ? theme : null) ?? fromPalette());
  const secondary = take(byRole('secondary') ?? fromPalette());
  const accent = take(byRole('accent') ?? fromPalette());
  return { primary, secondary, accent, palette: palette.slice(0, 8).map(toHex) };
}

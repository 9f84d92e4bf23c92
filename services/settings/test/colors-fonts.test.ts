import { describe, expect, it } from 'vitest';
import {
  colorsIn,
  emptyColorSignals,
  isNeutral,
  parseColor,
  pickColors,
  recordColorDeclaration,
  toHex,
} from '../src/domain/colors.ts';
import {
  emptyFontSignals,
  familiesOf,
  familiesOfShorthand,
  googleFontFamilies,
  pickFonts,
  recordFontDeclaration,
  recordLinkedFonts,
} from '../src/domain/fonts.ts';

const hex = (s: string) => {
  const c = parseColor(s);
  return c ? toHex(c) : null;
};

describe('colour parsing', () => {
  it('reads hex, rgb(a), hsl(a) and names', () => {
    expect(hex('#0B6E4F')).toBe('#0b6e4f');
    expect(hex('#abc')).toBe('#aabbcc');
    expect(hex('rgb(8, 160, 69)')).toBe('#08a045');
    expect(hex('rgb(8 160 69 / 50%)')).toBe('#08a045');
    expect(parseColor('rgba(0,0,0,.2)')?.a).toBeCloseTo(0.2);
    expect(hex('hsl(120, 100%, 25%)')).toBe('#008000');
    expect(hex('rebeccapurple')).toBe('#663399');
    expect(hex('#12345')).toBeNull();
    expect(hex('solid')).toBeNull();
  });

  it('tells neutrals from brand colours', () => {
    for (const n of ['#ffffff', '#000000', '#222222', '#f5f5f5', '#808080', 'rgba(11,110,79,0.2)'])
      expect(isNeutral(parseColor(n)!), n).toBe(true);
    for (const c of ['#0b6e4f', '#f4a259', '#1a73e8', '#e63946'])
      expect(isNeutral(parseColor(c)!), c).toBe(false);
  });

  it('finds colours in values but not in file names and strings', () => {
    expect(colorsIn('1px solid red').map(toHex)).toEqual(['#ff0000']);
    expect(colorsIn('url(/img/blue-wave.png) no-repeat')).toEqual([]);
    expect(colorsIn('linear-gradient(#0b6e4f, rgb(8,160,69))').map(toHex)).toEqual(['#0b6e4f', '#08a045']);
  });
});

describe('choosing primary, secondary and accent', () => {
  it('custom properties named for a role win, then theme-color, then usage', () => {
    const s = emptyColorSignals();
    s.themeColor = '#e63946';
    recordColorDeclaration(s, '--brand-primary', '#0b6e4f');
    recordColorDeclaration(s, '--accent', '#f4a259');
    for (let i = 0; i < 5; i++) recordColorDeclaration(s, 'color', '#1a73e8');
    // theme-color only stands in for a primary; the secondary is the most used colour left.
    expect(pickColors(s)).toMatchObject({ primary: '#0b6e4f', secondary: '#1a73e8', accent: '#f4a259' });
    s.customProperties.clear();
    expect(pickColors(s)).toMatchObject({ primary: '#e63946', secondary: '#1a73e8' });
  });

  it('without names, the most used non-neutral colours in order, near-duplicates merged', () => {
    const s = emptyColorSignals();
    for (let i = 0; i < 6; i++) recordColorDeclaration(s, 'color', '#1a73e8');
    for (let i = 0; i < 4; i++) recordColorDeclaration(s, 'color', '#1b74e9'); // same blue
    for (let i = 0; i < 3; i++) recordColorDeclaration(s, 'background', '#e63946');
    recordColorDeclaration(s, 'border-color', '#2a9d8f');
    for (let i = 0; i < 9; i++) recordColorDeclaration(s, 'color', '#333333'); // neutral
    const picked = pickColors(s);
    expect(picked).toMatchObject({ primary: '#1a73e8', secondary: '#e63946', accent: '#2a9d8f' });
    expect(picked.palette).toEqual(['#1a73e8', '#e63946', '#2a9d8f']);
  });

  it('counts var() uses for the colour of the property they name', () => {
    const s = emptyColorSignals();
    recordColorDeclaration(s, '--ink', '#6a4c93');
    for (let i = 0; i < 3; i++) recordColorDeclaration(s, 'color', 'var(--ink)');
    recordColorDeclaration(s, 'color', '#e63946');
    expect(pickColors(s).primary).toBe('#6a4c93');
  });

  it('answers null when the site has no brand colour', () => {
    const s = emptyColorSignals();
    recordColorDeclaration(s, 'color', '#111');
    expect(pickColors(s)).toEqual({ primary: null, secondary: null, accent: null, palette: [] });
  });
});

describe('typography', () => {
  it('reads font-family lists and the font shorthand', () => {
    expect(familiesOf(`"Inter", -apple-system, BlinkMacSystemFont, sans-serif`)).toEqual([
      'Inter',
      'System UI',
      'System UI',
    ]);
    expect(familiesOf('var(--font), serif')).toEqual([]);
    expect(familiesOfShorthand('700 2rem/1.2 "Playfair Display", serif')).toEqual(['Playfair Display']);
    expect(familiesOfShorthand('italic small-caps bold 16px/2 Georgia')).toEqual(['Georgia']);
    expect(familiesOfShorthand('inherit')).toBeNull();
  });

  it('reads Google Fonts links', () => {
    expect(
      googleFontFamilies(
        'https://fonts.googleapis.com/css2?family=Nunito:wght@400;700&family=Merriweather:wght@700',
      ),
    ).toEqual(['Nunito', 'Merriweather']);
    expect(googleFontFamilies('https://fonts.googleapis.com/css?family=Open+Sans|Roboto+Slab')).toEqual([
      'Open Sans',
      'Roboto Slab',
    ]);
    expect(googleFontFamilies('https://cdn.example/fonts.css?family=Nope')).toEqual([]);
  });

  it('primary = the body text font, secondary = the headings font', () => {
    const s = emptyFontSignals();
    recordFontDeclaration(s, 'html, body', 'font-family', '"Nunito", sans-serif');
    recordFontDeclaration(s, 'h1, h2', 'font-family', 'Merriweather, serif');
    recordFontDeclaration(s, '.code', 'font-family', 'Fira Code, monospace');
    recordFontDeclaration(s, '.code2', 'font-family', 'Fira Code, monospace');
    expect(pickFonts(s)).toEqual({ primaryFont: 'Nunito', secondaryFont: 'Merriweather' });
  });

  it('falls back to usage and font links', () => {
    const s = emptyFontSignals();
    recordLinkedFonts(s, ['Poppins', 'Lora']);
    recordFontDeclaration(s, '.x', 'font-family', 'Poppins');
    expect(pickFonts(s)).toEqual({ primaryFont: 'Poppins', secondaryFont: 'Lora' });
    expect(pickFonts(emptyFontSignals())).toEqual({ primaryFont: null, secondaryFont: null });
  });
});

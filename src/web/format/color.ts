/**
 * Parses a CSS hex or rgb() colour into [r, g, b] (0–255), or null. Named colours are left to
 * the browser (`CSS.supports`), which the page checks separately.
 *
 * @example
 * parseColor('#0a84ff'); // [10, 132, 255]
 * parseColor('rgb(0 0 0)'); // [0, 0, 0]
 */
export function parseColor(value: string): [number, number, number] | null {
  const v = value.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(v);
  if (hex) {
    const h = hex[1] ?? '';
    const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
  }
  const rgb =
    /^rgba?\(\s*(\d{1,3})[\s,]+(\d{1,3})[\s,]+(\d{1,3})\s*(?:[,/]\s*[\d.]+%?\s*)?\)$/.exec(v);
  if (rgb) {
    const parts = [rgb[1], rgb[2], rgb[3]].map((n) => Number(n));
    if (parts.every((n) => n <= 255)) return parts as [number, number, number];
  }
  return null;
}

/**
 * WCAG relative luminance of an sRGB colour.
 *
 * @example
 * relativeLuminance([255, 255, 255]); // 1
 */
export function relativeLuminance([r, g, b]: readonly [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/**
 * WCAG contrast ratio between two colours (1 to 21).
 *
 * @example
 * contrastRatio([0, 0, 0], [255, 255, 255]); // 21
 */
export function contrastRatio(
  a: readonly [number, number, number],
  b: readonly [number, number, number],
): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The text colour to put on an integrator's background so that it stays readable (WCAG AA):
 * black or white, whichever contrasts more.
 *
 * @example
 * readableTextOn([255, 221, 0]); // '#000000'
 * readableTextOn([20, 40, 120]); // '#ffffff'
 */
export function readableTextOn(bg: readonly [number, number, number]): '#000000' | '#ffffff' {
  return contrastRatio(bg, [0, 0, 0]) >= contrastRatio(bg, [255, 255, 255]) ? '#000000' : '#ffffff';
}

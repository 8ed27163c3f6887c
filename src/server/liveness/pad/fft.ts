/** A small radix-2 FFT, enough for the power spectrum of a face patch (at most 128×128). */

/**
 * In-place complex FFT of length n (a power of two), real and imaginary parts apart.
 *
 * @example
 * const re = new Float64Array([1, 0, 0, 0]);
 * const im = new Float64Array(4);
 * fft1d(re, im); // re = [1, 1, 1, 1]
 */
export function fft1d(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  if (n & (n - 1) || n !== im.length)
    throw new RangeError('fft1d needs equal power-of-two lengths');
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k;
        const b = a + len / 2;
        const xr = re[b]! * cr - im[b]! * ci;
        const xi = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a] = re[a]! + xr;
        im[a] = im[a]! + xi;
        const t = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = t;
      }
    }
  }
}

/**
 * Power spectrum of an n×n real patch (row by row), n a power of two: `out[v * n + u]` for the
 * frequency (u, v) in cycles per n pixels, unshifted (0 at index 0, negative frequencies from n/2).
 *
 * @example
 * powerSpectrum(new Float64Array(16).fill(1), 4)[0]; // 256: all the power at frequency 0
 */
export function powerSpectrum(patch: Float64Array, n: number): Float64Array {
  const re = new Float64Array(patch);
  const im = new Float64Array(n * n);
  const rr = new Float64Array(n);
  const ri = new Float64Array(n);
  for (let y = 0; y < n; y++) {
    rr.set(re.subarray(y * n, y * n + n));
    ri.fill(0);
    fft1d(rr, ri);
    re.set(rr, y * n);
    im.set(ri, y * n);
  }
  for (let x = 0; x < n; x++) {
    for (let y = 0; y < n; y++) {
      rr[y] = re[y * n + x]!;
      ri[y] = im[y * n + x]!;
    }
    fft1d(rr, ri);
    for (let y = 0; y < n; y++) {
      re[y * n + x] = rr[y]!;
      im[y * n + x] = ri[y]!;
    }
  }
  const out = new Float64Array(n * n);
  for (let i = 0; i < n * n; i++) out[i] = re[i]! * re[i]! + im[i]! * im[i]!;
  return out;
}

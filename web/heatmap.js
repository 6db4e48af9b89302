// The pairwise matrix as a heat map on a canvas: rows and columns in cluster order, so
// near-duplicate clusters show as blocks on the diagonal.

// Past this many documents the matrix would be unreadable (and n² estimates slow): show the first ones.
export const MAX_DOCS = 400;
const SIDE = 640;
// A light-to-dark ramp (value 0 → 1), readable for common colour-vision deficiencies.
const STOPS = [[247, 251, 255], [198, 219, 239], [107, 174, 214], [33, 113, 181], [8, 48, 107]];

/** Takes a value in [0, 1]; returns its colour as [r, g, b]. */
export function colour(v) {
  const x = Math.min(1, Math.max(0, v)) * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(x)), t = x - i;
  return STOPS[i].map((c, k) => Math.round(c + (STOPS[i + 1][k] - c) * t));
}

/**
 * Takes the order of documents to show, a pair measure (row, column) → [0, 1] and whether it is
 * symmetric (then each pair is estimated once); returns the matrix as a Float32Array (n·n,
 * row-major) with the order it was computed for.
 */
export function pairMatrix(order, measure, symmetric) {
  const n = Math.min(order.length, MAX_DOCS);
  const m = new Float32Array(n * n);
  for (let r = 0; r < n; r++) {
    m[r * n + r] = 1;
    for (let c = symmetric ? r + 1 : 0; c < n; c++) {
      if (c === r) continue;
      m[r * n + c] = measure(order[r], order[c]);
      if (symmetric) m[c * n + r] = m[r * n + c];
    }
  }
  return { n, order: order.slice(0, n), values: m };
}

/** Draws a matrix on a canvas (one square cell per pair) and returns the cell size in canvas pixels. */
export function drawMatrix(canvas, matrix) {
  const { n, values } = matrix;
  const cell = n === 0 ? 0 : Math.max(1, Math.floor(SIDE / n));
  canvas.width = canvas.height = n * cell;
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(n * cell, n * cell);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const [red, green, blue] = colour(values[r * n + c]);
      for (let y = r * cell; y < (r + 1) * cell; y++) {
        let at = (y * n * cell + c * cell) * 4;
        for (let x = 0; x < cell; x++, at += 4) {
          img.data[at] = red; img.data[at + 1] = green; img.data[at + 2] = blue; img.data[at + 3] = 255;
        }
      }
    }
  }
  ctx.putImageData(img, 0, 0);
  // Shown at a fixed size: large corpora get one pixel per pair, scaled up (pixelated) to stay readable.
  canvas.style.width = canvas.style.height = n === 0 ? '0' : `${Math.max(SIDE, n * cell)}px`;
  return cell;
}

/** Fills an element with the colour scale's legend. */
export function drawScale(el) {
  el.replaceChildren();
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    const swatch = document.createElement('span');
    swatch.style.background = `rgb(${colour(v).join(',')})`;
    swatch.style.color = v > 0.5 ? '#fff' : '#000';
    swatch.textContent = v.toFixed(2);
    el.append(swatch);
  }
}

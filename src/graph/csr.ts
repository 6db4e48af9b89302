/** Compressed sparse rows: row i is `targets[offsets[i] .. offsets[i + 1])`. */
export interface Csr {
  offsets: Uint32Array;
  targets: Uint32Array;
}

/** Takes per-row lists of ids; returns their CSR with each row sorted ascending and deduplicated. */
export function csrFromRows(rows: ReadonlyArray<ArrayLike<number>>): Csr {
  const n = rows.length;
  const offsets = new Uint32Array(n + 1);
  const sorted: Uint32Array[] = new Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const row = Uint32Array.from(rows[i]).sort();
    let k = 0;
    for (let j = 0; j < row.length; j++) if (j === 0 || row[j] !== row[j - 1]) row[k++] = row[j];
    sorted[i] = row.subarray(0, k);
    total += k;
    offsets[i + 1] = total;
  }
  const targets = new Uint32Array(total);
  for (let i = 0; i < n; i++) targets.set(sorted[i], offsets[i]);
  return { offsets, targets };
}

/** Takes a CSR over `n` nodes; returns the reverse CSR (row j lists the i with an edge i → j, ascending). */
export function reverseCsr(csr: Csr, n: number): Csr {
  const { offsets, targets } = csr;
  const rOffsets = new Uint32Array(n + 1);
  for (let e = 0; e < targets.length; e++) rOffsets[targets[e] + 1]++;
  for (let j = 0; j < n; j++) rOffsets[j + 1] += rOffsets[j];
  const fill = rOffsets.slice(0, n);
  const rTargets = new Uint32Array(targets.length);
  // Sources are visited in ascending order, so each reverse row comes out sorted.
  for (let i = 0; i < n; i++) {
    for (let e = offsets[i]; e < offsets[i + 1]; e++) rTargets[fill[targets[e]]++] = i;
  }
  return { offsets: rOffsets, targets: rTargets };
}

/**
 * Polynomials over GF(2) as BigInts (bit i = coefficient of x^i): the slow, obvious arithmetic
 * the Rabin fingerprint kernel is checked against, and the irreducibility test behind our
 * choice of polynomial (Rabin 1980, "Probabilistic algorithms in finite fields").
 */

/** Degree of a nonzero polynomial (-1 for zero). */
export function degree(a: bigint): number {
  return a === 0n ? -1 : a.toString(2).length - 1;
}

/** a mod p. */
export function mod(a: bigint, p: bigint): bigint {
  const dp = degree(p);
  let d = degree(a);
  while (d >= dp) {
    a ^= p << BigInt(d - dp);
    d = degree(a);
  }
  return a;
}

/** Carry-less product a·b. */
export function clmul(a: bigint, b: bigint): bigint {
  let r = 0n;
  for (let i = 0; b >> BigInt(i); i++) if ((b >> BigInt(i)) & 1n) r ^= a << BigInt(i);
  return r;
}

/** a·b mod p. */
export function mulmod(a: bigint, b: bigint, p: bigint): bigint {
  return mod(clmul(a, b), p);
}

/** x^e mod p for a non-negative integer e (square and multiply). */
export function xpow(e: bigint, p: bigint): bigint {
  let result = 1n, base = mod(2n, p);
  while (e > 0n) {
    if (e & 1n) result = mulmod(result, base, p);
    base = mulmod(base, base, p);
    e >>= 1n;
  }
  return result;
}

/** gcd(a, b) of polynomials. */
export function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, mod(a, b)];
  return a;
}

/**
 * Rabin's test: p of degree n is irreducible iff x^(2^n) ≡ x (mod p) and
 * gcd(x^(2^(n/q)) − x, p) = 1 for every prime q dividing n. For n = 64 the only q is 2.
 */
export function isIrreducible(p: bigint): boolean {
  const n = degree(p);
  if (n < 1) return false;
  const frob = (k: number) => { let t = mod(2n, p); for (let i = 0; i < k; i++) t = mulmod(t, t, p); return t; };
  if (frob(n) !== mod(2n, p)) return false;
  for (const q of primeFactors(n)) if (gcd(frob(n / q) ^ 2n, p) !== 1n) return false;
  return true;
}

function primeFactors(n: number): number[] {
  const out: number[] = [];
  for (let q = 2; q * q <= n; q++) if (n % q === 0) { out.push(q); while (n % q === 0) n /= q; }
  if (n > 1) out.push(n);
  return out;
}

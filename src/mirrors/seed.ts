/**
 * The default seed of every mirror algorithm's sampling steps (IP cluster pairs, the
 * document-frequency restriction, the mirroring test's path permutation); each step draws its own
 * stream with `Random.stream(seed, label)` (src/random.ts).
 */

/** The default seed of every mirror algorithm ('mirr' in ASCII). */
export const DEFAULT_SEED = 0x6d697272;

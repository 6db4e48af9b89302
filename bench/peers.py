"""The Python MinHash peers of the kernel benchmark, each timed in a process of its own.

    python peers.py PEER TEXTS.json CLOCK

TEXTS.json is a list of page texts (resemble's canonical text of each page: markup dropped, case
folded, tokens joined by single spaces); CLOCK is wall or cpu. The process loads the texts and the
peer's library, then answers one command per line of standard input with one JSON line:

    check -> {"version": ..., "signatures": n, "first": [first values of the first page]}
    run   -> {"ms": milliseconds of one pass over every text, text in to signatures out}
    rss   -> {"maxrss": peak resident set size of this process in KiB}

so the runner can interleave the peers' runs with resemble's. Peers (128 hash values each, except
datatrove's 14 x 8 = 112, its default):

    datasketch         MinHash.bulk over each page's 8-word shingles (str.split, " ".join, UTF-8)
    rensa-r            RMinHash.digest_matrix_from_token_sets over the same shingles
    rensa-c            CMinHash.digests_from_token_sets over the same shingles
    rensa-r-given      the same as rensa-r, the shingle lists built before timing
    rensa-c-given      the same as rensa-c, the shingle lists built before timing
    rensa-rho-given    RMinHash.digest_matrix_from_token_sets_rho, shingles built before timing
                       (rensa's sampled "rho" pipeline: not a MinHash of the whole shingle set)
    datatrove          MinhashDedupSignature(...).get_shingles(text) then .get_signature(...), per
                       page: its own normalization and spaCy word tokenizer, 5-gram shingles,
                       xxhash64, 14 buckets x 8 hashes (its defaults); the signature files it
                       would write are not written.

Set RAYON_NUM_THREADS=1 (the runner does) so rensa's batch calls stay on one core.
"""
import json
import resource
import sys
import time
from importlib.metadata import version

W = 8
PERM = 128
SEED = 42


def shingles(text):
    words = text.split()
    return [" ".join(words[i:i + W]) for i in range(max(1, len(words) - W + 1))]


def make(peer, texts):
    """Returns (library version, run() -> signatures as a list of lists)."""
    if peer == "datasketch":
        from datasketch import MinHash

        def run():
            sets = ([s.encode("utf-8") for s in shingles(t)] for t in texts)
            return [m.hashvalues for m in MinHash.bulk(sets, num_perm=PERM)]
        return version("datasketch"), run
    if peer.startswith("rensa-"):
        from rensa import CMinHash, RMinHash
        given = peer.endswith("-given")
        sets = [shingles(t) for t in texts] if given else None
        kind = peer[len("rensa-"):].removesuffix("-given")

        def compute(token_sets):
            if kind == "r":
                return RMinHash.digest_matrix_from_token_sets(token_sets, num_perm=PERM, seed=SEED).to_rows()
            if kind == "c":
                return CMinHash.digests_from_token_sets(token_sets, num_perm=PERM, seed=SEED)
            if kind == "rho":
                return RMinHash.digest_matrix_from_token_sets_rho(token_sets, num_perm=PERM, seed=SEED).to_rows()
            raise SystemExit(f"unknown peer {peer}")

        if given:
            def run():
                return compute(sets)
        else:
            def run():
                return compute([shingles(t) for t in texts])
        return version("rensa"), run
    if peer == "datatrove":
        import tempfile
        from datatrove.pipeline.dedup.minhash import MinhashDedupSignature
        stage = MinhashDedupSignature(output_folder=tempfile.mkdtemp(prefix="datatrove-sigs-"))

        def run():
            out = []
            for t in texts:
                sh = stage.get_shingles(t)
                out.append([v for bucket in stage.get_signature(sh) for v in bucket] if sh.size else [])
            return out
        return version("datatrove"), run
    raise SystemExit(f"unknown peer {peer}")


def main():
    peer, path, clock_name = sys.argv[1], sys.argv[2], sys.argv[3]
    clock = time.process_time if clock_name == "cpu" else time.perf_counter
    with open(path, encoding="utf-8") as f:
        texts = json.load(f)
    v, run = make(peer, texts)
    for line in sys.stdin:
        cmd = line.strip()
        if cmd == "check":
            sigs = run()
            first = next((s for s in sigs if len(s)), [])
            reply = {"version": v, "signatures": len(sigs), "first": [int(x) for x in list(first)[:4]], "length": len(first)}
        elif cmd == "run":
            t0 = clock()
            run()
            reply = {"ms": (clock() - t0) * 1000}
        elif cmd == "rss":
            reply = {"maxrss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}
        else:
            reply = {"error": f"unknown command {cmd!r}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

"""datasketch's MinHash-128 over pages already stripped of markup, timed in its own process.

Called by bench/peers.ts: python3 datasketch-peer.py TEXTS.json RUNS CLOCK, where TEXTS.json is a
list of canonical texts (tokens joined by spaces) and CLOCK is wall or cpu. For each page it does
what a datasketch user does with text: split into words, join 8-word shingles, MinHash(num_perm=128)
and update_batch with the shingles' UTF-8. Prints JSON: the milliseconds of each run, datasketch's
version, and the first page's first hash values (for the determinism check).
"""
import json
import sys
import time

from datasketch import MinHash

texts = json.load(open(sys.argv[1], encoding="utf-8"))
runs = int(sys.argv[2])
clock = time.process_time if sys.argv[3] == "cpu" else time.perf_counter


def sketch_all():
    out = []
    for text in texts:
        words = text.split()
        shingles = [" ".join(words[i:i + 8]) for i in range(max(1, len(words) - 7))]
        m = MinHash(num_perm=128)
        m.update_batch([s.encode("utf-8") for s in shingles])
        out.append(m)
    return out


first = sketch_all()  # warm-up
times = []
for _ in range(runs):
    t0 = clock()
    sketch_all()
    times.append((clock() - t0) * 1000)
try:
    from importlib.metadata import version
    v = version("datasketch")
except Exception:
    v = "unknown"
print(json.dumps({"ms": times, "version": v, "first": [int(x) for x in first[0].hashvalues[:4]] if first else []}))

"""The peer pipeline users pick today, end to end on a JSONL crawl: read, strip tags, 8-word
shingles, datasketch MinHash with 128 permutations, MinHashLSH at threshold 0.5, clusters by
union-find over the LSH query results. Prints one JSON line: pages, bytes, seconds, clusters.

    python3 bench/pipeline_datasketch.py CRAWL.jsonl

datasketch is found on PYTHONPATH (the benchmark passes DATASKETCH_PATH there when set).
"""
import json
import re
import sys
import time

from datasketch import MinHash, MinHashLSH

DROP = re.compile(r"<(script|style)\b[^>]*>.*?</\1\s*>|<!--.*?-->", re.S | re.I)
TAG = re.compile(r"<[^>]+>")
WORD = re.compile(r"\w+")
W = 8


def shingles(html):
    text = TAG.sub(" ", DROP.sub(" ", html)).lower()
    words = WORD.findall(text)
    if len(words) < W:
        return [" ".join(words).encode()] if words else []
    return [" ".join(words[i:i + W]).encode() for i in range(len(words) - W + 1)]


def main(path):
    started = time.perf_counter()
    lsh = MinHashLSH(threshold=0.5, num_perm=128)
    sketches = []
    size = 0
    with open(path, "rb") as f:
        for i, line in enumerate(f):
            size += len(line)
            record = json.loads(line)
            m = MinHash(num_perm=128)
            m.update_batch(shingles(record.get("html") or record.get("text") or ""))
            lsh.insert(i, m)
            sketches.append(m)
    parent = list(range(len(sketches)))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, m in enumerate(sketches):
        for j in lsh.query(m):
            a, b = find(i), find(j)
            if a != b:
                parent[max(a, b)] = min(a, b)
    sizes = {}
    for i in range(len(sketches)):
        r = find(i)
        sizes[r] = sizes.get(r, 0) + 1
    clusters = sum(1 for n in sizes.values() if n > 1)
    print(json.dumps({"pages": len(sketches), "bytes": size, "seconds": time.perf_counter() - started, "clusters": clusters}))


if __name__ == "__main__":
    main(sys.argv[1])

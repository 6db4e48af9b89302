"""The peer on the templated crawl: datasketch MinHash (128 permutations) + MinHashLSH at
threshold 0.5 over word 8-shingles of each page's text (markup, scripts and styles dropped,
as a user of datasketch would do it with the standard library), candidates joined with
union-find. Prints one JSON line per cluster of two or more pages: {"members": [{"url": ...}]}.
Needs datasketch importable (PYTHONPATH); exits 3 with a message when it is not.
Run: python3 eval/templated/datasketch_peer.py CRAWL.jsonl
"""
import json
import re
import sys
from html.parser import HTMLParser

try:
    from datasketch import MinHash, MinHashLSH
except ImportError:
    sys.stderr.write("datasketch is not importable (set PYTHONPATH)\n")
    sys.exit(3)


class Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def shingles(html, w=8):
    p = Text()
    p.feed(html)
    words = re.findall(r"\w+", " ".join(p.parts).lower())
    if len(words) < w:
        return {" ".join(words)}
    return {" ".join(words[i:i + w]) for i in range(len(words) - w + 1)}


def main(path):
    rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    lsh = MinHashLSH(threshold=0.5, num_perm=128)
    hashes = []
    for i, r in enumerate(rows):
        m = MinHash(num_perm=128, seed=1)
        m.update_batch(s.encode("utf-8") for s in shingles(r["html"]))
        lsh.insert(i, m)
        hashes.append(m)
    parent = list(range(len(rows)))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, m in enumerate(hashes):
        for j in lsh.query(m):
            if j != i:
                parent[find(i)] = find(j)
    groups = {}
    for i in range(len(rows)):
        groups.setdefault(find(i), []).append(i)
    for g in sorted(groups.values()):
        if len(g) > 1:
            print(json.dumps({"members": [{"url": rows[i]["url"]} for i in g]}))


if __name__ == "__main__":
    main(sys.argv[1])

// LinkSummary and the merge condition against a slow reference that enumerates every pair of
// trivial clusters with plain loops, on random graphs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { linkSummary } from '../../src/collections/link-summary.js';
import { mergeCondition, mergeEdges } from '../../src/collections/merge.js';
import { pageGraph, type PageGraph } from '../../src/collections/page-graph.js';
import { Random } from '../../src/random.js';
import { trivialFromLabels, type TrivialClusters } from '../../src/collections/trivial.js';

/** Uniform integers below n from the seeded generator. */
function rng(seed: number) {
  const r = new Random(seed);
  return (n: number) => r.int(n);
}

/** A random graph whose pages fall in few labels (so trivial clusters have several pages) and few hosts. */
function randomCase(seed: number) {
  const r = rng(seed);
  const n = 4 + r(30), labels = 1 + r(n), hosts = 1 + r(4), m = r(4 * n);
  const hostOf = Array.from({ length: n }, () => r(hosts));
  const links: Array<[number, number]> = [];
  for (let e = 0; e < m; e++) links.push([r(n), r(n)]);
  const graph = pageGraph(n, hostOf, links);
  const trivial = trivialFromLabels(Array.from({ length: n }, () => r(labels)));
  return { graph, trivial };
}

interface Row { ri: number; rj: number; a: number; b: number; s: number; d: number }

/** Plain loops over every pair (Ri, Rj), i ≠ j, every page and every link. */
function referenceSummary(graph: PageGraph, trivial: TrivialClusters, singleSite: boolean, minSourceSize: number): Row[] {
  const members: number[][] = Array.from({ length: trivial.count }, () => []);
  for (let p = 0; p < graph.size; p++) members[trivial.rid[p]].push(p);
  const linked = (p: number, q: number) => {
    if (singleSite && graph.hostOf[p] !== graph.hostOf[q]) return false;
    for (let e = graph.linkOffsets[p]; e < graph.linkOffsets[p + 1]; e++) if (graph.linkTargets[e] === q) return true;
    return false;
  };
  const rows: Row[] = [];
  for (let i = 0; i < trivial.count; i++) {
    if (members[i].length < minSourceSize) continue;
    for (let j = 0; j < trivial.count; j++) {
      if (i === j) continue;
      let s = 0, d = 0;
      for (const p of members[i]) if (members[j].some((q) => linked(p, q))) s++;
      for (const q of members[j]) if (members[i].some((p) => linked(p, q))) d++;
      if (s > 0) rows.push({ ri: i, rj: j, a: members[i].length, b: members[j].length, s, d });
    }
  }
  return rows;
}

/** Brute force: is there a map from Ri to Rj along links, one-to-one (exact) or onto (extended)? */
function mapExists(graph: PageGraph, from: number[], to: number[], exact: boolean): boolean {
  const targets = from.map((p) => to.filter((q) => {
    for (let e = graph.linkOffsets[p]; e < graph.linkOffsets[p + 1]; e++) if (graph.linkTargets[e] === q) return true;
    return false;
  }));
  const pick: number[] = [];
  const search = (i: number): boolean => {
    if (i === from.length) {
      const hit = new Set(pick);
      return hit.size === to.length && (!exact || pick.length === hit.size);
    }
    for (const q of targets[i]) { pick.push(q); if (search(i + 1)) return true; pick.pop(); }
    return false;
  };
  return search(0);
}

test('LinkSummary equals the pairwise reference on 300 random graphs', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const { graph, trivial } = randomCase(seed);
    for (const singleSite of [false, true]) {
      for (const minSourceSize of [1, 2]) {
        const got = linkSummary(graph, trivial, { singleSite, minSourceSize });
        const rows: Row[] = [];
        for (let g = 0; g < got.length; g++) rows.push({ ri: got.ri[g], rj: got.rj[g], a: got.a[g], b: got.b[g], s: got.s[g], d: got.d[g] });
        assert.equal(rows, referenceSummary(graph, trivial, singleSite, minSourceSize), `seed ${seed} singleSite ${singleSite} min ${minSourceSize}`);
        // Each row's links really go from Ri to Rj.
        for (let g = 0; g < got.length; g++) {
          for (let x = got.offsets[g]; x < got.offsets[g + 1]; x++) {
            assert.is(trivial.rid[got.linkSrc[x]], got.ri[g]);
            assert.is(trivial.rid[got.linkDst[x]], got.rj[g]);
          }
        }
      }
    }
  }
});

test('merge edges: the condition on the reference rows, a map along links exactly when one exists', () => {
  let edgesSeen = 0, unmatchedSeen = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const { graph, trivial } = randomCase(seed);
    const members: number[][] = Array.from({ length: trivial.count }, () => []);
    for (let p = 0; p < graph.size; p++) members[trivial.rid[p]].push(p);
    {
      const summary = linkSummary(graph, trivial);
      const edges = mergeEdges(summary);
      const expected = referenceSummary(graph, trivial, false, 1)
        .filter((r) => r.a === r.s && r.s === r.d && r.d === r.b)
        .filter((r) => mapExists(graph, members[r.ri], members[r.rj], r.a === r.b));
      const got = Array.from(edges.from, (f, e) => `${f}>${edges.to[e]}`);
      assert.equal(got, expected.map((r) => `${r.ri}>${r.rj}`), `seed ${seed}`);
      for (let e = 0; e < edges.length; e++) {
        const src = Array.from(edges.mapSrc.subarray(edges.mapOffsets[e], edges.mapOffsets[e + 1]));
        const dst = Array.from(edges.mapDst.subarray(edges.mapOffsets[e], edges.mapOffsets[e + 1]));
        assert.equal(src, members[edges.from[e]], 'every page of Ri is mapped once');
        assert.equal([...new Set(dst)].sort((x, y) => x - y), members[edges.to[e]], 'onto Rj');
        assert.is(new Set(dst).size, dst.length, 'one-to-one');
        for (let k = 0; k < src.length; k++) {
          let linked = false;
          for (let x = graph.linkOffsets[src[k]]; x < graph.linkOffsets[src[k] + 1]; x++) linked ||= graph.linkTargets[x] === dst[k];
          assert.ok(linked, 'the map follows links');
        }
      }
      edgesSeen += edges.length;
      unmatchedSeen += edges.unmatched;
    }
  }
  // The random graphs exercise both the fast path and the matching path.
  assert.ok(edgesSeen > 100, `edges ${edgesSeen}`);
  assert.ok(unmatchedSeen > 0, `unmatched ${unmatchedSeen}`);
});

test('mergeCondition: |Ri| = s = d = |Rj|, extended |Ri| = s ≥ d = |Rj|', () => {
  assert.ok(mergeCondition(3, 3, 3, 3, false));
  assert.not.ok(mergeCondition(3, 3, 2, 2, false));
  assert.ok(mergeCondition(3, 3, 2, 2, true));
  assert.not.ok(mergeCondition(3, 2, 2, 2, true));
  assert.not.ok(mergeCondition(2, 2, 3, 3, true));
  assert.not.ok(mergeCondition(3, 3, 2, 3, true));
});

test.run();

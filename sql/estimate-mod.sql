-- resemble sql template
-- name: estimate-mod
-- version: 1
-- summary: Broder's MOD_m estimates for candidate pairs, r = |V(A) ∩ V(B)| / |V(A) ∪ V(B)| and c(A, B) = |V(A) ∩ V(B)| / |V(A)|, kept when the largest of the three reaches `floor`. Candidates that cannot reach it even if they shared every common key they hold are left out first. The values two documents share are the kept keys they share (hits) plus the common keys they share, so only the few common rows are joined, never the whole key table.
-- param candidates: relation -- (a, b, hits) from the pairs template
-- param common: relation -- (key, doc) rows of common keys, from the cap template
-- param sizes: relation -- (doc, length, cardinality): sketch length per document
-- param ignored: relation -- (doc, ignored) from the cap template
-- param bounded: table -- out (a, b, hits): candidates whose upper bound reaches the floor
-- param sides: table -- out (a, b, key): each bounded pair with the common keys of a; a table of its own so that no engine joins the common rows with themselves on key alone (that is the quadratic join the cap exists to avoid)
-- param both_common: table -- out (a, b, n): common keys each bounded pair shares
-- param pairs: table -- out (a, b, hits, shared, resemblance, containment_ab, containment_ba)
-- param floor: number -- least resemblance or containment (either way) for a pair to be kept
-- param floor_bound: number -- the floor less a rounding margin, for the upper-bound filter
CREATE TABLE {{bounded}} AS
SELECT c.a, c.b, c.hits
FROM {{candidates}} c
JOIN {{sizes}} sa ON sa.doc = c.a
JOIN {{sizes}} sb ON sb.doc = c.b
LEFT JOIN {{ignored}} ia ON ia.doc = c.a
LEFT JOIN {{ignored}} ib ON ib.doc = c.b
WHERE CAST(c.hits + LEAST(COALESCE(ia.ignored, 0), COALESCE(ib.ignored, 0)) AS {{float64}})
      / GREATEST(1, LEAST(sa.length, sb.length)) >= {{floor_bound}};

CREATE TABLE {{sides}} AS
SELECT c.a, c.b, ka.key
FROM {{bounded}} c
JOIN {{common}} ka ON ka.doc = c.a;

CREATE TABLE {{both_common}} AS
SELECT y.a, y.b, COUNT(*) AS n
FROM {{sides}} y
JOIN {{common}} kb ON kb.doc = y.b AND kb.key = y.key
GROUP BY y.a, y.b;

CREATE TABLE {{pairs}} AS
SELECT a, b, hits, shared, resemblance, containment_ab, containment_ba
FROM (
  SELECT e.a, e.b, e.hits, e.shared,
    CAST(e.shared AS {{float64}}) / (sa.length + sb.length - e.shared) AS resemblance,
    CAST(e.shared AS {{float64}}) / sa.length AS containment_ab,
    CAST(e.shared AS {{float64}}) / sb.length AS containment_ba
  FROM (
    SELECT c.a, c.b, c.hits, c.hits + COALESCE(x.n, 0) AS shared
    FROM {{bounded}} c
    LEFT JOIN {{both_common}} x ON x.a = c.a AND x.b = c.b
  ) e
  JOIN {{sizes}} sa ON sa.doc = e.a
  JOIN {{sizes}} sb ON sb.doc = e.b
) r
WHERE GREATEST(resemblance, containment_ab, containment_ba) >= {{floor}};

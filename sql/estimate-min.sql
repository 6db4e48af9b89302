-- resemble sql template
-- name: estimate-min
-- version: 1
-- summary: Broder's MIN_s estimates for candidate pairs, kept when the largest of the three reaches `floor`. Resemblance r = |MIN_s(F(A) ∪ F(B)) ∩ F(A) ∩ F(B)| / |MIN_s(F(A) ∪ F(B))|: a shared value is among the s smallest of the union when its rank there, pos_a + pos_b − (shared values below it), is below s. Containment c(A, B) as the core estimates it: below τ, the smaller largest value of the full sketches (no bound when neither is full), F(A) samples S(A) and F(B) holds all of S(B), so c ≈ (shared values) / (values of A ≤ τ). Ranks come from ROW_NUMBER over one sketch row (at most s values), never from a list over an unbounded group. Keys are signed INT64 with the bits of unsigned hashes: unsigned x ≤ y is written out by sign. Pairs whose counts cannot reach the floor are left out first when neither sketch is full (then c ≤ (hits + common values) / smaller length).
-- param candidates: relation -- (a, b, hits) from the pairs template
-- param keys: relation -- (key INT64, doc INT64): every sketch value, common keys included
-- param sizes: relation -- (doc, length, cardinality): sketch length per document
-- param ignored: relation -- (doc, ignored) from the cap template
-- param bounded: table -- out (a, b, hits): candidates that may reach the floor
-- param ranked: table -- out (doc, key, pos, top): the sketch rows of bounded documents, pos = rank in unsigned order, top = 1 on the largest value
-- param sides: table -- out (a, b, hits, key, pa): each bounded pair with the sketch row of a; a table of its own so that no engine joins the two rows on key alone (a common key would pair every document holding it)
-- param counted: table -- out (a, b, hits, shared, x): values shared, and those among the s smallest of the union
-- param tau: table -- out (a, b, hits, shared, x, la, lb, side, top_a, top_b): which sketch's largest value is τ (1: a's, 2: b's, 0: neither is full)
-- param pairs: table -- out (a, b, hits, shared, resemblance, containment_ab, containment_ba)
-- param s: integer -- the sketch size s of MIN_s
-- param floor: number -- least resemblance or containment (either way) for a pair to be kept
-- param floor_bound: number -- the floor less a rounding margin, for the upper-bound filter
CREATE TABLE {{bounded}} AS
SELECT c.a, c.b, c.hits
FROM {{candidates}} c
JOIN {{sizes}} sa ON sa.doc = c.a
JOIN {{sizes}} sb ON sb.doc = c.b
LEFT JOIN {{ignored}} ia ON ia.doc = c.a
LEFT JOIN {{ignored}} ib ON ib.doc = c.b
WHERE sa.length >= {{s}} OR sb.length >= {{s}}
   OR CAST(c.hits + LEAST(COALESCE(ia.ignored, 0), COALESCE(ib.ignored, 0)) AS {{float64}})
      / GREATEST(1, LEAST(sa.length, sb.length)) >= {{floor_bound}};

CREATE TABLE {{ranked}} AS
SELECT doc, key, pos, CASE WHEN pos = n - 1 THEN 1 ELSE 0 END AS top
FROM (
  SELECT k.doc, k.key,
    ROW_NUMBER() OVER (PARTITION BY k.doc ORDER BY CASE WHEN k.key < 0 THEN 1 ELSE 0 END, k.key) - 1 AS pos,
    COUNT(*) OVER (PARTITION BY k.doc) AS n
  FROM {{keys}} k
  JOIN (SELECT doc FROM (SELECT a AS doc FROM {{bounded}} UNION ALL SELECT b AS doc FROM {{bounded}}) u GROUP BY doc) d ON d.doc = k.doc
) r;

CREATE TABLE {{sides}} AS
SELECT c.a, c.b, c.hits, ra.key, ra.pos AS pa
FROM {{bounded}} c
JOIN {{ranked}} ra ON ra.doc = c.a;

CREATE TABLE {{counted}} AS
SELECT a, b, hits, COUNT(*) AS shared,
  SUM(CASE WHEN pa + pb - below < {{s}} THEN 1 ELSE 0 END) AS x
FROM (
  SELECT a, b, hits, pa, pb,
    ROW_NUMBER() OVER (PARTITION BY a, b ORDER BY pa) - 1 AS below
  FROM (
    SELECT x.a, x.b, x.hits, x.pa, rb.pos AS pb
    FROM {{sides}} x
    JOIN {{ranked}} rb ON rb.doc = x.b AND rb.key = x.key
  ) j
) w
GROUP BY a, b, hits;

CREATE TABLE {{tau}} AS
SELECT e.a, e.b, e.hits, e.shared, e.x, sa.length AS la, sb.length AS lb,
  CASE
    WHEN sa.length >= {{s}} AND (sb.length < {{s}}
      OR (ta.key >= 0 AND tb.key < 0)
      OR (ta.key >= 0 AND tb.key >= 0 AND ta.key <= tb.key)
      OR (ta.key < 0 AND tb.key < 0 AND ta.key <= tb.key)) THEN 1
    WHEN sb.length >= {{s}} THEN 2
    ELSE 0
  END AS side,
  ta.key AS top_a, tb.key AS top_b
FROM {{counted}} e
JOIN {{sizes}} sa ON sa.doc = e.a
JOIN {{sizes}} sb ON sb.doc = e.b
JOIN {{ranked}} ta ON ta.doc = e.a AND ta.top = 1
JOIN {{ranked}} tb ON tb.doc = e.b AND tb.top = 1;

CREATE TABLE {{pairs}} AS
WITH other AS (
  SELECT t.a, t.b,
    SUM(CASE WHEN (r.key >= 0 AND t.tau_key < 0)
              OR (r.key >= 0 AND t.tau_key >= 0 AND r.key <= t.tau_key)
              OR (r.key < 0 AND t.tau_key < 0 AND r.key <= t.tau_key) THEN 1 ELSE 0 END) AS below_other
  FROM (
    SELECT a, b, CASE WHEN side = 1 THEN b ELSE a END AS other_doc, CASE WHEN side = 1 THEN top_a ELSE top_b END AS tau_key
    FROM {{tau}}
    WHERE side > 0
  ) t
  JOIN {{ranked}} r ON r.doc = t.other_doc
  GROUP BY t.a, t.b
),
estimated AS (
  SELECT t.a, t.b, t.hits, t.shared,
    CAST(t.x AS {{float64}}) / LEAST({{s}}, t.la + t.lb - t.shared) AS resemblance,
    CAST(t.shared AS {{float64}}) / (CASE WHEN t.side = 2 THEN o.below_other ELSE t.la END) AS containment_ab,
    CAST(t.shared AS {{float64}}) / (CASE WHEN t.side = 1 THEN o.below_other ELSE t.lb END) AS containment_ba
  FROM {{tau}} t
  LEFT JOIN other o ON o.a = t.a AND o.b = t.b
)
SELECT a, b, hits, shared, resemblance, containment_ab, containment_ba
FROM estimated
WHERE GREATEST(resemblance, containment_ab, containment_ba) >= {{floor}};

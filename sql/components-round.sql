-- resemble sql template
-- name: components-round
-- version: 1
-- summary: One round of min-label propagation with pointer jumping, as one statement (the hooking and shortcutting rules of FastSV, Zhang, Azad and Hu 2020). Labels are parent pointers f, each at most its vertex; gf = f(f(v)) is the jump. For every edge (u, w), both ways: u's root takes gf(w) (hooking: whole trees move at once), u takes gf(w), and every vertex takes gf(v) (shortcutting); each vertex keeps the smallest proposal. Labels only decrease and always name a vertex of the same component; at the fixed point every vertex holds the smallest vertex of its component, and trees halve in depth every round instead of labels creeping one edge per round. The driver repeats it, swapping `labels` and `next`, until components-changed returns 0.
-- param edges: relation -- (a INT64, b INT64): undirected edges
-- param labels: relation -- (v, label) from the previous round (or components-init)
-- param next: table -- out (v, label)
CREATE TABLE {{next}} AS
WITH jump AS (
  SELECT l.v, l.label AS f, p.label AS gf
  FROM {{labels}} l
  JOIN {{labels}} p ON p.v = l.label
),
both_ways AS (
  SELECT a AS u, b AS w FROM {{edges}}
  UNION ALL
  SELECT b AS u, a AS w FROM {{edges}}
),
proposals AS (
  SELECT v, gf AS label FROM jump
  UNION ALL
  SELECT ju.f AS v, jw.gf AS label FROM both_ways e JOIN jump ju ON ju.v = e.u JOIN jump jw ON jw.v = e.w
  UNION ALL
  SELECT e.u AS v, jw.gf AS label FROM both_ways e JOIN jump jw ON jw.v = e.w
)
SELECT v, MIN(label) AS label
FROM proposals
GROUP BY v;

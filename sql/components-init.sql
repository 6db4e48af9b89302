-- resemble sql template
-- name: components-init
-- version: 1
-- summary: Connected components by min-label propagation, first labels: every vertex of an edge takes the smallest of itself and its neighbours.
-- param edges: relation -- (a INT64, b INT64): undirected edges, e.g. the thresholded pairs
-- param labels: table -- out (v, label)
CREATE TABLE {{labels}} AS
SELECT v, MIN(label) AS label
FROM (
  SELECT a AS v, LEAST(a, b) AS label FROM {{edges}}
  UNION ALL
  SELECT b AS v, LEAST(a, b) AS label FROM {{edges}}
) t
GROUP BY v;

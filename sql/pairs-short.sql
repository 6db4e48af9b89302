-- resemble sql template
-- name: pairs-short
-- version: 1
-- summary: With prefix keys, adds to the candidates `pairs` wrote the pairs of two short rows that share fewer than `min_hits` kept keys but at least one, when the two documents' keys number fewer than `short_union` together (counting shared keys once): their keys are then every value of both, and the bound behind `min_hits`, which needs a union of a whole prefix, does not hold for them.
-- param kept: relation -- (key INT64, doc INT64) after the cap
-- param short: relation -- (doc INT64, n INT64): the documents with fewer than `short_union` keys, and how many keys each has (before the cap)
-- param candidates: table -- the (a, b, hits) table `pairs` wrote with the same `min_hits`; rows are added to it
-- param min_hits: integer -- the least shared keys `pairs` kept
-- param short_union: integer -- the prefix length
INSERT INTO {{candidates}}
SELECT x.doc AS a, y.doc AS b, COUNT(*) AS hits
FROM (SELECT k.key, k.doc, s.n FROM {{kept}} k JOIN {{short}} s ON s.doc = k.doc) x
JOIN (SELECT k.key, k.doc, s.n FROM {{kept}} k JOIN {{short}} s ON s.doc = k.doc) y ON y.key = x.key AND x.doc < y.doc
GROUP BY x.doc, y.doc, x.n, y.n
HAVING COUNT(*) < {{min_hits}} AND x.n + y.n - COUNT(*) < {{short_union}};

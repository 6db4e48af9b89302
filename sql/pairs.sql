-- resemble sql template
-- name: pairs
-- version: 1
-- summary: Broder's pair counting (Cho's iceberg query): every pair of documents sharing a kept key, with the number of keys they share, kept when that count reaches `min_hits`. A self-join on key then GROUP BY the pair: no per-key lists, so the engine can spill.
-- param kept: relation -- (key INT64, doc INT64) after the cap
-- param candidates: table -- out (a, b, hits): a < b, hits = kept keys shared
-- param min_hits: integer -- least shared keys for a pair to be kept (1 keeps every pair; for MIN_s sketches of size s, a resemblance threshold t needs about t * s shared values)
CREATE TABLE {{candidates}} AS
SELECT x.doc AS a, y.doc AS b, COUNT(*) AS hits
FROM {{kept}} x
JOIN {{kept}} y ON y.key = x.key AND x.doc < y.doc
GROUP BY x.doc, y.doc
HAVING COUNT(*) >= {{min_hits}};

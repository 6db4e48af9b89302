-- resemble sql template
-- name: sizes
-- version: 1
-- summary: Sketch row lengths per document counted from the keys, for MOD_m sketches whose map side wrote no sizes table (MOD_m sketches hold every selected shingle, so the cardinality of the sketch is its length).
-- param keys: relation -- (key INT64, doc INT64): every sketch value of every document
-- param sizes: table -- out (doc, length, cardinality)
CREATE TABLE {{sizes}} AS
SELECT doc, COUNT(*) AS length, CAST(COUNT(*) AS {{float64}}) AS cardinality
FROM {{keys}}
GROUP BY doc;

-- resemble sql template
-- name: cap
-- version: 1
-- summary: Broder's common-shingle cap. Keys held by more than `cap` documents say little about resemblance and would make the pair join quadratic, so they are dropped and counted per document; keys held by one document cannot make a pair and are dropped too.
-- param keys: relation -- (key INT64, doc INT64): one row per sketch value (or band key) per document, distinct within a document
-- param counts: table -- out (key, n): documents per key, for keys held by 2 or more
-- param kept: table -- out (key, doc): rows of keys held by 2..cap documents
-- param common: table -- out (key, doc): rows of keys held by more than cap documents (few keys, and the only ones a MOD_m estimate still needs)
-- param ignored: table -- out (doc, ignored): per document, how many of its keys were dropped as common
-- param cap: integer -- keys held by more documents than this are dropped (Broder: 1000)
CREATE TABLE {{counts}} AS
SELECT key, COUNT(*) AS n
FROM {{keys}}
GROUP BY key
HAVING COUNT(*) >= 2;

CREATE TABLE {{kept}} AS
SELECT k.key, k.doc
FROM {{keys}} k
JOIN {{counts}} c ON c.key = k.key
WHERE c.n <= {{cap}};

CREATE TABLE {{common}} AS
SELECT k.key, k.doc
FROM {{keys}} k
JOIN {{counts}} c ON c.key = k.key
WHERE c.n > {{cap}};

CREATE TABLE {{ignored}} AS
SELECT doc, COUNT(*) AS ignored
FROM {{common}}
GROUP BY doc;

-- resemble sql template
-- name: edges
-- version: 1
-- summary: Broder's final phase, first half: the pairs that join a cluster, resemblance ≥ threshold or, when containment is at most 1, containment either way ≥ containment. These thresholded edges go back to the library's union-find, or to the components templates when they do not fit in memory.
-- param pairs: relation -- (a, b, hits, shared, resemblance, containment_ab, containment_ba) from an estimate template
-- param edges: table -- out (a, b)
-- param threshold: number -- least resemblance for an edge
-- param containment: number -- least containment either way for an edge; a value above 1 turns containment off
CREATE TABLE {{edges}} AS
SELECT a, b
FROM {{pairs}}
WHERE resemblance >= {{threshold}}
   OR containment_ab >= {{containment}}
   OR containment_ba >= {{containment}};

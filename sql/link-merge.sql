-- resemble sql template
-- name: link-merge
-- version: 1
-- summary: Steps 2–4 of Cho's cluster growing (Figure 9): the LinkSummary rows whose trivial clusters may be coalesced, |Ri| = s = d = |Rj|, or with `extended` = 1 the partial-mirror condition of Section 4, |Ri| = s ≥ d = |Rj|. The output feeds the components templates (step 5).
-- param summary: relation -- (ri, rj, a, b, s, d) from link-summary
-- param merges: table -- out (a, b): a = Ri, b = Rj
-- param extended: integer -- 1 for the extended (partial-mirror) condition, 0 for the exact one
CREATE TABLE {{merges}} AS
SELECT t.ri AS a, t.rj AS b
FROM {{summary}} t
WHERE t.a = t.s AND t.d = t.b AND (t.s = t.d OR ({{extended}} = 1 AND t.s >= t.d));

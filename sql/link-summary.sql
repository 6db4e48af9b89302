-- resemble sql template
-- name: link-summary
-- version: 1
-- summary: Cho's LinkSummary (Figure 8): LINK joined with TRIVIAL on both ends, grouped by the pair of trivial clusters (Ri, Rj), Ri ≠ Rj, with a = |Ri|, b = |Rj|, s = pages of Ri linking into Rj, d = pages of Rj linked from Ri. The distinct counts are two GROUP BY levels rather than COUNT(DISTINCT), so every step is a join or a grouping the engine can spill.
-- param members: relation -- (rid INT64, pid INT64): TRIVIAL, one row per page of a trivial cluster
-- param links: relation -- (src INT64, dst INT64): LINK, one row per hyperlink between pages
-- param summary: table -- out (ri, rj, a, b, s, d)
-- param min_source_size: integer -- rows whose source cluster has fewer pages are left out (1 keeps all)
CREATE TABLE {{summary}} AS
WITH sizes AS (
  SELECT rid, COUNT(*) AS size FROM {{members}} GROUP BY rid
),
joined AS (
  SELECT ts.rid AS ri, td.rid AS rj, l.src, l.dst
  FROM {{links}} l
  JOIN {{members}} ts ON ts.pid = l.src
  JOIN {{members}} td ON td.pid = l.dst
  WHERE ts.rid <> td.rid
),
s_counts AS (
  SELECT ri, rj, COUNT(*) AS s FROM (SELECT ri, rj, src FROM joined GROUP BY ri, rj, src) x GROUP BY ri, rj
),
d_counts AS (
  SELECT ri, rj, COUNT(*) AS d FROM (SELECT ri, rj, dst FROM joined GROUP BY ri, rj, dst) y GROUP BY ri, rj
)
SELECT sc.ri, sc.rj, za.size AS a, zb.size AS b, sc.s, dc.d
FROM s_counts sc
JOIN d_counts dc ON dc.ri = sc.ri AND dc.rj = sc.rj
JOIN sizes za ON za.rid = sc.ri
JOIN sizes zb ON zb.rid = sc.rj
WHERE za.size >= {{min_source_size}};

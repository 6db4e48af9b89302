-- resemble sql template
-- name: site-links
-- version: 1
-- summary: The links between pages of one host, for collections restricted to a single site: LINK joined with the documents on both ends.
-- param links: relation -- (src INT64, dst INT64)
-- param documents: relation -- (doc INT64, host ...): the host of each page, a name or a number
-- param site_links: table -- out (src, dst)
CREATE TABLE {{site_links}} AS
SELECT l.src, l.dst
FROM {{links}} l
JOIN {{documents}} ds ON ds.doc = l.src
JOIN {{documents}} dd ON dd.doc = l.dst
WHERE ds.host = dd.host;

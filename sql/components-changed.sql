-- resemble sql template
-- name: components-changed
-- version: 1
-- summary: How many vertices changed label in the last round; the driver stops at 0.
-- param labels: relation -- (v, label) before the round
-- param next: relation -- (v, label) after the round
SELECT COUNT(*) AS changed
FROM {{next}} n
JOIN {{labels}} l ON l.v = n.v
WHERE n.label <> l.label;

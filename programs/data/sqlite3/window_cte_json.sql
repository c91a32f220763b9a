-- Window functions, recursive CTEs, JSON, and strings.
.mode list
.headers on
CREATE TABLE sales(region TEXT, month INTEGER, amount REAL);
WITH RECURSIVE m(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM m WHERE i < 12)
INSERT INTO sales SELECT r, i, (i * 37 + length(r) * 11) % 50 + i * 1.25
FROM m, (SELECT 'north' AS r UNION ALL SELECT 'south' UNION ALL SELECT 'west');
SELECT region, month, amount,
       sum(amount) OVER (PARTITION BY region ORDER BY month) AS running,
       round(avg(amount) OVER (PARTITION BY region ORDER BY month ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), 3) AS smooth,
       rank() OVER (PARTITION BY month ORDER BY amount DESC) AS rk,
       row_number() OVER w AS rn, lag(amount, 1, -1) OVER w AS prev, lead(amount) OVER w AS next
FROM sales WHERE month <= 4 WINDOW w AS (PARTITION BY region ORDER BY month)
ORDER BY region, month;
SELECT region, month, dense_rank() OVER (ORDER BY region) AS dr, ntile(4) OVER (ORDER BY month, region) AS q,
       percent_rank() OVER (ORDER BY amount) AS pr, cume_dist() OVER (ORDER BY amount) AS cd,
       first_value(month) OVER (PARTITION BY region ORDER BY amount DESC) AS best,
       nth_value(amount, 2) OVER (PARTITION BY region ORDER BY month ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS second
FROM sales WHERE month IN (1, 6, 12) ORDER BY region, month;
SELECT month, group_concat(region, '/') OVER (ORDER BY month RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS g
FROM sales WHERE region = 'west' AND month < 5;
SELECT region, sum(amount) FILTER (WHERE month % 2 = 0) AS even, count(*) FILTER (WHERE amount > 30) AS big
FROM sales GROUP BY region ORDER BY region;
-- Recursive CTEs: Fibonacci, a tree walk, Mandelbrot, Sudoku-free.
WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT n + 1, b, a + b FROM fib WHERE n < 90)
SELECT n, a FROM fib WHERE n % 10 = 0;
CREATE TABLE tree(id INTEGER PRIMARY KEY, parent INTEGER, name TEXT);
INSERT INTO tree VALUES (1, NULL, 'root'), (2, 1, 'a'), (3, 1, 'b'), (4, 2, 'a1'), (5, 2, 'a2'), (6, 4, 'a1x'), (7, 3, 'b1');
WITH RECURSIVE walk(id, path, depth) AS (
  SELECT id, name, 0 FROM tree WHERE parent IS NULL
  UNION ALL SELECT t.id, w.path || '/' || t.name, w.depth + 1 FROM tree t JOIN walk w ON t.parent = w.id ORDER BY 2)
SELECT substr('........', 1, depth * 2) || path FROM walk;
WITH RECURSIVE
  xaxis(x) AS (VALUES(-2.0) UNION ALL SELECT x + 0.05 FROM xaxis WHERE x < 1.2),
  yaxis(y) AS (VALUES(-1.0) UNION ALL SELECT y + 0.1 FROM yaxis WHERE y < 1.0),
  m(iter, cx, cy, x, y) AS (
    SELECT 0, x, y, 0.0, 0.0 FROM xaxis, yaxis
    UNION ALL
    SELECT iter + 1, cx, cy, x * x - y * y + cx, 2.0 * x * y + cy FROM m WHERE (x * x + y * y) < 4.0 AND iter < 28),
  m2(iter, cx, cy) AS (SELECT max(iter), cx, cy FROM m GROUP BY cx, cy),
  a(t) AS (SELECT group_concat(substr(' .+*#', 1 + min(iter / 7, 4), 1), '') FROM m2 GROUP BY cy)
SELECT group_concat(rtrim(t), x'0a') FROM a;
-- JSON.
SELECT json('{"a": [1, 2.5, "x", null, true], "b": {"c": 1e3}}');
SELECT json_extract('{"a": [1, 2.5, "x"], "b": {"c": 1e3}}', '$.a[1]', '$.b.c', '$.a[#-1]');
SELECT json_array(1, 'two', 3.0, NULL, json('[4]')), json_object('k', 1, 'l', json_array()), json_quote('a"b');
SELECT key, value, type, fullkey FROM json_each('{"x": 1, "y": [2, 3], "z": {"w": null}}');
SELECT fullkey, atom FROM json_tree('[1, [2, [3, {"d": 4.75}]]]') WHERE atom IS NOT NULL;
SELECT json_set('{"a": 1}', '$.b', 2, '$.a', 'one'), json_remove('[1, 2, 3]', '$[1]'), json_insert('{}', '$.x', 0.1);
SELECT json_group_array(month) FROM sales WHERE region = 'north' AND month < 6;
SELECT json_group_object(region, round(total, 2)) FROM (SELECT region, sum(amount) AS total FROM sales GROUP BY region);
SELECT json_valid('{"a":}'), json_valid('[]'), json_type('{"a": 1.5}', '$.a'), json_array_length('[1, [2, 3]]');
SELECT '{"n": 1}' -> '$.n', '{"n": "s"}' ->> '$.n', '[10, 20]' -> 1;
-- String functions.
SELECT upper('abc'), lower('ÀBC'), length('héllo'), length(x'00ff'), length(CAST('héllo' AS BLOB)), hex('hé'), quote('it''s'), quote(x'0a'), unicode('✓'), char(72, 105, 10003);
SELECT substr('hello world', 7), substr('hello', -3, 2), substr('hello', 2), instr('hello', 'll'), replace('aaa', 'a', 'bb');
SELECT trim('  x  '), ltrim('xxyx', 'x'), rtrim('abccc', 'c'), '[' || trim('--a--', '-') || ']', reverse_missing_is_fine FROM (SELECT 1 AS reverse_missing_is_fine);
SELECT soundex('Robert'), soundex('Rupert'), like('a%', 'abc'), glob('*b?', 'abc'), 'abc' LIKE 'A%', 'abc' GLOB 'A*';
SELECT zeroblob(4), length(zeroblob(1000)), typeof(randomblob(4)), length(hex(randomblob(16)));
SELECT group_concat(x, '') FROM (SELECT char(65 + value % 26) AS x FROM generate_series(0, 51));

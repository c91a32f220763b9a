-- Tables, indexes, joins, aggregates, subqueries, transactions and triggers.
.headers on
.mode list
CREATE TABLE dept(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, budget REAL);
CREATE TABLE emp(id INTEGER PRIMARY KEY, name TEXT, dept_id INTEGER REFERENCES dept(id),
                 salary INTEGER, hired TEXT, manager INTEGER);
CREATE INDEX emp_dept ON emp(dept_id, salary DESC);
CREATE TABLE audit(n INTEGER PRIMARY KEY AUTOINCREMENT, what TEXT);
CREATE TRIGGER emp_ins AFTER INSERT ON emp BEGIN
  INSERT INTO audit(what) VALUES ('insert ' || new.name);
END;
CREATE TRIGGER emp_raise AFTER UPDATE OF salary ON emp WHEN new.salary > old.salary BEGIN
  INSERT INTO audit(what) VALUES (printf('raise %s %d->%d', new.name, old.salary, new.salary));
END;
CREATE TRIGGER emp_del BEFORE DELETE ON emp BEGIN
  UPDATE emp SET manager = NULL WHERE manager = old.id;
END;
INSERT INTO dept VALUES (1, 'eng', 1e6), (2, 'sales', 250000.5), (3, 'ops', NULL), (4, 'empty', 0);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
INSERT INTO emp(name, dept_id, salary, hired, manager)
SELECT 'e' || i, 1 + i % 3, 40000 + (i * 7919) % 60000,
       date('2000-01-01', '+' || (i * 37) || ' days'), CASE WHEN i > 3 THEN 1 + i % 3 END
FROM n;
SELECT count(*), sum(salary), min(salary), max(salary), avg(salary), total(salary) FROM emp;
SELECT d.name, count(e.id) AS n, sum(e.salary) AS payroll, round(avg(e.salary), 2) AS mean
FROM dept d LEFT JOIN emp e ON e.dept_id = d.id GROUP BY d.id ORDER BY d.name;
SELECT d.name, e.name, e.salary FROM emp e JOIN dept d ON d.id = e.dept_id
WHERE e.salary = (SELECT max(salary) FROM emp WHERE dept_id = d.id) ORDER BY d.name;
SELECT e.name, m.name AS mgr FROM emp e LEFT JOIN emp m ON m.id = e.manager WHERE e.id <= 6 ORDER BY e.id;
SELECT dept_id, group_concat(name, ',') FROM (SELECT * FROM emp WHERE salary > 95000 ORDER BY name) GROUP BY dept_id;
SELECT name FROM dept WHERE NOT EXISTS (SELECT 1 FROM emp WHERE dept_id = dept.id);
SELECT dept_id, count(*) FROM emp GROUP BY dept_id HAVING count(*) > 66 ORDER BY 1;
SELECT strftime('%Y', hired) AS y, count(*) FROM emp GROUP BY y ORDER BY y LIMIT 5;
SELECT name, salary FROM emp WHERE salary BETWEEN 50000 AND 50500 OR name IN ('e1', 'e2') ORDER BY salary, name;
SELECT name FROM emp WHERE name LIKE 'e1_' ORDER BY name DESC LIMIT 3 OFFSET 2;
SELECT name FROM emp WHERE name GLOB 'e19*' ORDER BY name;
EXPLAIN QUERY PLAN SELECT * FROM emp WHERE dept_id = 2 AND salary > 90000;
-- Transactions and savepoints.
BEGIN;
UPDATE emp SET salary = salary + 1000 WHERE dept_id = 3 AND salary < 42000;
SAVEPOINT sp1;
DELETE FROM emp WHERE dept_id = 2;
SELECT count(*) FROM emp;
ROLLBACK TO sp1;
RELEASE sp1;
COMMIT;
SELECT count(*) FROM emp;
BEGIN;
DELETE FROM emp;
ROLLBACK;
SELECT count(*), (SELECT count(*) FROM audit) FROM emp;
DELETE FROM emp WHERE id IN (1, 2);
SELECT count(*) FROM emp WHERE manager IN (1, 2);
SELECT what FROM audit ORDER BY n DESC LIMIT 5;
-- Upsert, returning, constraints, conflict handling.
CREATE TABLE kv(k TEXT PRIMARY KEY, v INTEGER CHECK (v >= 0), n INTEGER DEFAULT 1);
INSERT INTO kv(k, v) VALUES ('a', 1), ('b', 2);
INSERT INTO kv(k, v) VALUES ('a', 10) ON CONFLICT(k) DO UPDATE SET v = v + excluded.v, n = n + 1;
INSERT OR IGNORE INTO kv(k, v) VALUES ('b', 99);
INSERT OR REPLACE INTO kv(k, v) VALUES ('c', 3);
INSERT INTO kv(k, v) VALUES ('d', 4) RETURNING k, v * 2;
SELECT * FROM kv ORDER BY k;
INSERT INTO kv(k, v) VALUES ('e', -1);
SELECT changes(), total_changes() > 0;
-- Views, compound selects, CASE, NULL handling, collation.
CREATE VIEW rich AS SELECT name, salary FROM emp WHERE salary > 99000;
SELECT * FROM rich ORDER BY salary DESC, name;
SELECT 1 UNION SELECT 2 UNION ALL SELECT 2 EXCEPT SELECT 1 ORDER BY 1;
SELECT 'x' INTERSECT SELECT 'x';
SELECT NULL IS NULL, NULL = NULL, coalesce(NULL, NULL, 3), nullif(4, 4), ifnull(NULL, 'd'), iif(1 < 2, 'y', 'n');
SELECT CASE 3 WHEN 1 THEN 'one' WHEN 3 THEN 'three' ELSE 'other' END, CASE WHEN NULL THEN 1 ELSE 0 END;
SELECT 'abc' = 'ABC', 'abc' = 'ABC' COLLATE NOCASE, 'a' < 'b', x'41' = 'A', typeof(x'41');
CREATE TABLE words(w TEXT COLLATE NOCASE);
INSERT INTO words VALUES ('banana'), ('Apple'), ('cherry'), ('apple'), ('Banana');
SELECT w FROM words ORDER BY w, w COLLATE BINARY;
SELECT DISTINCT w FROM words ORDER BY 1;
-- Integer overflow and type affinity.
SELECT 9223372036854775807 + 1, -9223372036854775808 - 1, 9223372036854775807 * 2, 5 / 2, 5 % 3, -5 / 2, -5 % 3, 5.0 / 2;
SELECT typeof(1), typeof(1.0), typeof('1'), typeof(NULL), typeof(1 + '1'), '10' + 5, '1e3' * 1, CAST('12abc' AS INTEGER);
SELECT CAST(1e20 AS INTEGER), CAST(-1e20 AS INTEGER), CAST(3.99 AS INTEGER), CAST(-3.99 AS INTEGER), CAST('0x10' AS INTEGER);
CREATE TABLE aff(i INTEGER, r REAL, t TEXT, b BLOB, n NUMERIC);
INSERT INTO aff VALUES ('12', '12', 12, 12, '12.0'), ('1.5', 'x', 1.5, '1.5', '1e2');
SELECT typeof(i), typeof(r), typeof(t), typeof(b), typeof(n), i, r, t, b, n FROM aff;
SELECT abs(-9223372036854775807), abs(-3.5), sign(-2), sign(0.0), sign(3);

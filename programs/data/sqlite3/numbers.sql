-- Real-number formatting, printf/format, math functions, conversions.
.mode list
SELECT 0.1, 1.0, 1e15, 1e16, 1e17, 123456789012345678, 1.5e300, 2.5e-300, -0.0, 1.0 / 3, 2.0 / 3, 100.0;
SELECT 3.14159265358979, 1e308 * 10, -1e308 * 10, 0.1 + 0.2, 1e-7, 12345.6789e-10, 4.9e-324, 2.2250738585072014e-308;
SELECT printf('%d %5d %-5d| %05d %+d %x %X %o %c', 42, 42, 42, 42, 42, 255, 255, 8, 'hello');
SELECT printf('%f %.2f %10.3f %-10.1f| %e %.3E %g %g %g', 3.14159, 2.675, -1.5, 2.25, 12345.678, 0.000123, 1e-5, 123456789.0, 100.0);
SELECT printf('%.0f %.0f %.0f %.0f %.1f %.15g %.17g %.20f', 0.5, 1.5, 2.5, -0.5, 0.05, 0.1, 0.1, 0.1);
SELECT printf('%s|%10s|%-10s|%.3s|%q|%Q|%Q|%w', 'str', 'right', 'left', 'truncate', 'it''s', 'it''s', NULL, 'a"b');
SELECT printf('%lld %llu %i %%', 9223372036854775807, -1, -7), printf('%,d', 1234567890), printf('%!.3f %!g', 2.0, 1e20);
SELECT format('%.30f', 1.0 / 7), format('%.*f', 4, 2.0 / 3), format('%10.4e|%-12g|', 6.02214076e23, 1.0 / 1024);
SELECT printf('%.100f', 1e-100) = printf('%.100f', 1e-100), length(printf('%.1000f', 1.0)), printf('%5.3s|%-5c|', 'abcdef', 'xyz');
SELECT round(2.5), round(-2.5), round(3.14159, 3), round(1234.5678, -2), round(0.5e-10, 12), round(1e300, 2);
SELECT CAST(0.1 AS TEXT), CAST(1e100 AS TEXT), CAST(123.0 AS TEXT), CAST('3.0e2' AS REAL), CAST('  -1.5  ' AS REAL), CAST('inf' AS REAL);
SELECT 1e999, -1e999, typeof(1e999), 9.9e307 + 9.9e307, 1e308 / 1e-308;
SELECT 10 / 3.0, 10.0 % 3, -7.5 % 2, 7 % -3, 1 << 62, 1 << 63, 1 << 64, -1 >> 70, ~0, 6 & 3, 6 | 3;
SELECT sqrt(2), pow(2, 0.5), power(10, -2), exp(1), ln(10), log(100), log10(1000), log2(1024), log(2, 64);
SELECT sin(1), cos(1), tan(1), asin(1), acos(0), atan(1), atan2(1, 2), sinh(1), cosh(1), tanh(1), pi(), degrees(pi()), radians(180);
SELECT floor(-2.5), ceil(-2.5), ceiling(2.1), trunc(-2.7), mod(7.5, 2), sqrt(-1), ln(0), acosh(2), asinh(1), atanh(0.5);
SELECT sum(x), avg(x), total(x), min(x), max(x) FROM (SELECT 0.1 AS x UNION ALL SELECT 0.2 UNION ALL SELECT 0.3 UNION ALL SELECT 1e-20);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
SELECT sum(1.0 / i), sum(1.0 / (i * i)), sum(i * i * i), printf('%.12f', sum(sin(i))), max(i * 0.1), avg(i / 7.0) FROM n;
WITH RECURSIVE n(i, x) AS (SELECT 0, 1.0 UNION ALL SELECT i + 1, x * 1.7 FROM n WHERE i < 1400)
SELECT i, x, printf('%.6e', x), CAST(x AS TEXT) FROM n WHERE i % 100 = 0;
WITH RECURSIVE n(i, x) AS (SELECT 0, 1.0 UNION ALL SELECT i + 1, x / 3.3 FROM n WHERE i < 640)
SELECT i, x, printf('%!.20g', x) FROM n WHERE i % 80 = 0;
SELECT 1.0 * 9007199254740993, 9007199254740993, CAST(9007199254740993 AS REAL) = 9007199254740992, 0.1 * 3 = 0.3, abs(0.1 * 3 - 0.3) < 1e-15;
SELECT '1.5' + 0, '0x1A' + 0, '1e2xyz' + 0, '.5' + 0, '5.' + 0, '-' + 0, '1,5' + 0, ' 12 ' + 0;
SELECT date('2024-02-28', '+1 day'), date('2023-02-28', '+1 day'), datetime(0, 'unixepoch'), julianday('2000-01-01'), strftime('%j %W %w %s', '2024-12-31 13:14:15');
SELECT datetime('2024-01-31', '+1 month'), time('12:30:45.678', '+90 minutes'), strftime('%f', '2020-01-01 00:00:01.250'), date(2451545.0);

-- A CPU-heavy workload: recursion, floating point, tables, strings, GC.
-- `lua bench.lua N` scales it (default 1); the output is a set of checksums.
local N = tonumber(arg and arg[1]) or 1

local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print("fib", fib(24 + N))

-- Binary trees (allocation and the collector).
local function bottomup(d)
  if d == 0 then return {} end
  d = d - 1
  return {bottomup(d), bottomup(d)}
end
local function check(t)
  if t[1] then return 1 + check(t[1]) + check(t[2]) end
  return 1
end
local total = 0
for d = 4, 12 + N, 2 do
  local iters = 1 << (12 + N - d + 4)
  for _ = 1, iters // 16 do total = total + check(bottomup(d)) end
end
print("trees", total)

-- Spectral norm (floating point, closures).
local function A(i, j) local ij = i + j - 1; return 1.0 / (ij * (ij - 1) * 0.5 + i) end
local function Av(x, y, n) for i = 1, n do local a = 0; for j = 1, n do a = a + x[j] * A(i, j) end; y[i] = a end end
local function Atv(x, y, n) for i = 1, n do local a = 0; for j = 1, n do a = a + x[j] * A(j, i) end; y[i] = a end end
local function AtAv(x, y, t, n) Av(x, t, n); Atv(t, y, n) end
local n = 100 * N
local u, v, t = {}, {}, {}
for i = 1, n do u[i] = 1 end
for _ = 1, 10 do AtAv(u, v, t, n); AtAv(v, u, t, n) end
local vBv, vv = 0, 0
for i = 1, n do local ui, vi = u[i], v[i]; vBv = vBv + ui * vi; vv = vv + vi * vi end
print("spectral", string.format("%0.9f", math.sqrt(vBv / vv)))

-- Mandelbrot (float loop, integer bit ops).
local size = 120 * N
local bits, sum = 0, 0
for y = 0, size - 1 do
  local ci = 2 * y / size - 1
  for x = 0, size - 1 do
    local cr = 2 * x / size - 1.5
    local zr, zi, i = 0.0, 0.0, 0
    while i < 50 and zr * zr + zi * zi <= 4 do
      zr, zi = zr * zr - zi * zi + cr, 2 * zr * zi + ci
      i = i + 1
    end
    bits = ((bits << 1) | (i == 50 and 1 or 0)) & 0xffffffff
    sum = (sum + bits) % 1000000007
  end
end
print("mandel", sum)

-- Strings: building, hashing, patterns.
local words = {}
for i = 1, 20000 * N do words[i] = string.format("w%05d", (i * 7919) % 100000) end
table.sort(words)
local h = 0
for i = 1, #words, 7 do
  local w = words[i]
  for c in w:gmatch("%d") do h = (h * 31 + c:byte()) % 4294967296 end
end
local joined = table.concat(words, " ", 1, 1000)
print("strings", h, #joined, select(2, joined:gsub("w0", "")))

-- Integer arithmetic: a sieve and a hash mix.
local lim = 200000 * N
local sieve, primes = {}, 0
for i = 2, lim do
  if not sieve[i] then
    primes = primes + 1
    for j = i * i, lim, i do sieve[j] = true end
  end
end
local x = 88172645463325252
for _ = 1, 100000 * N do
  x = x ~ (x << 13); x = x ~ (x >> 7); x = x ~ (x << 17)
end
print("ints", primes, x)

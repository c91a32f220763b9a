-- Tables, the table library, metatables, closures and upvalues.
local function p(...) print(...) end
local function keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = tostring(k) end
  table.sort(ks)
  return table.concat(ks, ",")
end

local t = {10, 20, 30, x = 1, y = 2, [3.0] = "three", [-1] = "neg"}
p(#t, t[3], t.x, keys(t))
table.insert(t, 40); table.insert(t, 1, 5)
p(#t, table.concat(t, " ", 1, #t - 0), table.remove(t), table.remove(t, 1), #t)
p(table.unpack({1, 2, 3, nil, 5}, 1, 5))
p(select("#", table.unpack({}, 1, 3)), select(-1, 1, 2, 3), select(2, "a", "b", "c"))
local m = table.move({1, 2, 3, 4, 5}, 2, 4, 1)
p(table.concat(m, ","), table.concat(table.move({1, 2, 3}, 1, 3, 3, {}), ",", 3, 5))
local pk = table.pack(1, nil, 3)
p(pk.n, pk[1], pk[2], pk[3])
-- Sorting: numbers, strings, custom comparators, stability-independent checks.
math.randomseed(123)
local arr = {}
for i = 1, 2000 do arr[i] = math.random(1, 100000) end
table.sort(arr)
local ok = true
for i = 2, #arr do if arr[i - 1] > arr[i] then ok = false end end
p(ok, arr[1], arr[1000], arr[2000])
table.sort(arr, function(a, b) return a > b end)
p(arr[1], arr[2000])
local recs = {}
for i = 1, 100 do recs[i] = {id = i, key = (i * 37) % 17} end
table.sort(recs, function(a, b) if a.key ~= b.key then return a.key < b.key end return a.id < b.id end)
local out = {}
for i = 1, 10 do out[i] = recs[i].id end
p(table.concat(out, " "))
p(pcall(table.sort, {3, 1, 2}, function(a, b) return true end))
-- Table growth and shrinking, hash + array parts, nil holes.
local g = {}
for i = 1, 10000 do g[i] = i * i end
for i = 1, 10000, 2 do g[i] = nil end
local sum, cnt = 0, 0
for k, v in pairs(g) do sum = sum + v; cnt = cnt + 1 end
p(cnt, sum)
local h = {}
for i = 1, 5000 do h["k" .. i] = i end
for i = 1, 5000, 3 do h["k" .. i] = nil end
cnt = 0
for _ in pairs(h) do cnt = cnt + 1 end
p(cnt, h.k2, h.k4, next({}))
-- Metatables.
local V = {}
V.__index = V
local function vec(x, y) return setmetatable({x = x, y = y}, V) end
V.__add = function(a, b) return vec(a.x + b.x, a.y + b.y) end
V.__sub = function(a, b) return vec(a.x - b.x, a.y - b.y) end
V.__mul = function(a, b) if type(b) == "number" then return vec(a.x * b, a.y * b) end return a.x * b.x + a.y * b.y end
V.__unm = function(a) return vec(-a.x, -a.y) end
V.__eq = function(a, b) return a.x == b.x and a.y == b.y end
V.__lt = function(a, b) return a.x * a.x + a.y * a.y < b.x * b.x + b.y * b.y end
V.__le = function(a, b) return not (b < a) end
V.__len = function(a) return math.sqrt(a.x * a.x + a.y * a.y) end
V.__tostring = function(a) return "(" .. a.x .. "," .. a.y .. ")" end
V.__concat = function(a, b) return tostring(a) .. tostring(b) end
V.__call = function(self, k) return self[k] end
V.__idiv = function(a, n) return vec(a.x // n, a.y // n) end
V.__mod = function(a, n) return vec(a.x % n, a.y % n) end
V.__band = function(a, b) return "band" end
V.__shl = function(a, b) return "shl" end
V.__bnot = function(a) return "bnot" end
function V:norm1() return math.abs(self.x) + math.abs(self.y) end
local a, b = vec(3, 4), vec(1, 2)
p(tostring(a + b), tostring(a - b), a * b, tostring(a * 2), tostring(-a), a == vec(3, 4), a ~= b)
p(b < a, a <= b, #a, a .. b, a("x"), a:norm1(), tostring(a // 2), tostring(a % 2), a & 1, a << 1, ~a)
-- __index / __newindex chains and rawget/rawset.
local base = {greet = function() return "hi" end}
local mid = setmetatable({}, {__index = base})
local top = setmetatable({}, {__index = mid})
p(top.greet(), rawget(top, "greet"))
local log = {}
local proxy = setmetatable({}, {
  __index = function(_, k) log[#log + 1] = "get " .. k; return k .. "!" end,
  __newindex = function(t, k, v) log[#log + 1] = "set " .. k; rawset(t, k, v * 2) end,
})
proxy.a = 5
p(proxy.a, proxy.b, table.concat(log, ";"), rawlen({1, 2}), rawequal(a, vec(3, 4)))
-- __close and to-be-closed variables.
do
  local order = {}
  do
    local x <close> = setmetatable({}, {__close = function(_, e) order[#order + 1] = "x" .. tostring(e) end})
    local y <close> = setmetatable({}, {__close = function() order[#order + 1] = "y" end})
    local z <const> = 42
    order[#order + 1] = "body" .. z
  end
  p(table.concat(order, " "))
  local ok2, err = pcall(function()
    local w <close> = setmetatable({}, {__close = function(_, e) order[#order + 1] = "w:" .. tostring(e) end})
    error("boom", 0)
  end)
  p(ok2, err, order[#order])
end
-- Closures and upvalues.
local function counter()
  local c = 0
  return function() c = c + 1; return c end, function() return c end
end
local inc, get = counter()
inc(); inc(); inc()
p(get())
local fns = {}
for i = 1, 5 do fns[i] = function() return i * 10 end end
p(fns[1](), fns[5]())
local shared = {}
do
  local v = 0
  for i = 1, 3 do
    shared[i] = function(d) v = v + d; return v end
  end
end
p(shared[1](1), shared[2](10), shared[3](100))
local function mkadder(n) return function(x) return function(y) return x + y + n end end end
p(mkadder(1)(2)(3))
-- Recursive local function and varargs.
local function fact(n) if n <= 1 then return 1 end return n * fact(n - 1) end
p(fact(20), fact(21), fact(25.0))
local function va(...) local n = select("#", ...); return n, ... end
p(va(), va(nil, nil), va(1, nil, 3))
local function tail(n, acc) if n == 0 then return acc end return tail(n - 1, acc + n) end
p(tail(1000000, 0))
-- goto and nested breaks.
local found
for i = 1, 10 do
  for j = 1, 10 do
    if i * j == 42 then found = i .. "x" .. j; goto done end
  end
end
::done::
p(found)
-- Integer keys normalisation and length of sequences with border.
local seq = {}
for i = 1, 100 do seq[i] = i end
p(#seq, seq[100.0], seq["100"])
seq[#seq + 1] = 101
p(#seq)
-- Environments and load.
local env = {print = print, x = 5}
local chunk = load("x = x + 1; return x * 2", "chunk", "t", env)
p(chunk(), env.x, load("return ...")(1, 2), load("syntax error here"))
local bc = string.dump(function(a) return a * 3 end)
p(load(bc, "bc", "b")(14))
local pieces = {"return ", "1 ", "+ ", "2"}
local i = 0
p(load(function() i = i + 1; return pieces[i] end)())

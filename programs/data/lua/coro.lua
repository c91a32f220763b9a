-- Coroutines: generators, passing values, yields across pcall and metamethods, close.
local function p(...) print(...) end
local co = coroutine.create(function(a, b)
  p("start", a, b)
  local c = coroutine.yield(a + b)
  p("got", c)
  local d, e = coroutine.yield(c * 2)
  p("got2", d, e)
  return "end", d + e
end)
p(coroutine.resume(co, 1, 2))
p(coroutine.status(co))
p(coroutine.resume(co, 10))
p(coroutine.resume(co, 3, 4))
p(coroutine.status(co), coroutine.resume(co))
-- Generators.
local function range(n)
  return coroutine.wrap(function() for i = 1, n do coroutine.yield(i) end end)
end
local s = 0
for v in range(100) do s = s + v end
p(s)
local function permgen(a, n)
  n = n or #a
  if n <= 1 then coroutine.yield(a) else
    for i = 1, n do
      a[n], a[i] = a[i], a[n]
      permgen(a, n - 1)
      a[n], a[i] = a[i], a[n]
    end
  end
end
local count, sig = 0, 0
for perm in coroutine.wrap(function() permgen({1, 2, 3, 4, 5}) end) do
  count = count + 1
  sig = (sig * 31 + perm[1] * 10000 + perm[2] * 1000 + perm[3] * 100 + perm[4] * 10 + perm[5]) % 1000000007
end
p(count, sig)
-- Producer/consumer pipeline.
local function producer()
  return coroutine.create(function()
    for i = 1, 5 do coroutine.yield("line" .. i) end
    return nil
  end)
end
local function filter(prod)
  return coroutine.create(function()
    while true do
      local _, x = coroutine.resume(prod)
      if not x then return nil end
      coroutine.yield(x:upper())
    end
  end)
end
local f = filter(producer())
while true do
  local _, x = coroutine.resume(f)
  if not x then break end
  io.write(x, " ")
end
print()
-- Errors inside coroutines.
local ec = coroutine.create(function() local x = nil; return x.field end)
local ok, err = coroutine.resume(ec)
p(ok, err, coroutine.status(ec))
p(coroutine.resume(ec))
local ec2 = coroutine.create(function() error({code = 42}) end)
local ok2, e2 = coroutine.resume(ec2)
p(ok2, type(e2), e2.code)
-- Yield across pcall (allowed in 5.4), and errors after yields.
local yc = coroutine.create(function()
  local r = {pcall(function()
    local v = coroutine.yield("in pcall")
    error("after yield " .. v, 0)
  end)}
  coroutine.yield(table.unpack(r))
  return "done"
end)
p(coroutine.resume(yc))
p(coroutine.resume(yc, "V"))
p(coroutine.resume(yc))
-- Yield from a metamethod and from table.sort's comparator (not allowed: C boundary).
local mt = {__index = function(_, k) return coroutine.yield(k) end}
local mc = coroutine.wrap(function() local t = setmetatable({}, mt); return "result:" .. t.foo end)
p(mc())
p(mc("bar"))
local sc = coroutine.create(function() table.sort({3, 2, 1}, function(a, b) coroutine.yield() return a < b end) end)
p(coroutine.resume(sc))
-- isyieldable, running, wrap errors, close.
p(coroutine.isyieldable(), select(2, coroutine.running()))
p(coroutine.wrap(function() return coroutine.isyieldable(), select(2, coroutine.running()) end)())
local wc = coroutine.wrap(function() error("wrapped", 0) end)
p(pcall(wc))
local closed = {}
local cc = coroutine.create(function()
  local x <close> = setmetatable({}, {__close = function() closed[#closed + 1] = "closed" end})
  coroutine.yield(1)
end)
coroutine.resume(cc)
p(coroutine.close(cc), coroutine.status(cc), closed[1])
-- Many coroutines alive at once, each with its own stack.
local cos = {}
for i = 1, 500 do
  cos[i] = coroutine.create(function(n)
    local acc = 0
    while true do acc = acc + n; n = coroutine.yield(acc) end
  end)
end
local tot = 0
for round = 1, 10 do
  for i = 1, #cos do local _, v = coroutine.resume(cos[i], i + round); tot = tot + v end
end
p(tot)
-- Deep recursion inside a coroutine (the Lua stack grows on the heap).
local deep = coroutine.wrap(function()
  local function r(n) if n == 0 then return 0 end return 1 + r(n - 1) end
  coroutine.yield(r(50000))
end)
p(deep())
-- Resume a dead or running coroutine.
p(coroutine.resume(coroutine.running()))
p(pcall(coroutine.resume, nil))

-- The garbage collector: full and step collections, incremental and
-- generational modes, weak tables, ephemerons, finalizers and resurrection.
local function p(...) print(...) end
local function count(t) local n = 0; for _ in pairs(t) do n = n + 1 end; return n end

p(collectgarbage("isrunning"), type(collectgarbage("count")))
-- Weak values.
local wv = setmetatable({}, {__mode = "v"})
local keep = {}
for i = 1, 100 do
  local o = {i}
  wv[i] = o
  if i % 10 == 0 then keep[#keep + 1] = o end
end
collectgarbage(); collectgarbage()
p("weak values", count(wv))
-- Weak keys.
local wk = setmetatable({}, {__mode = "k"})
local held = {}
for i = 1, 100 do
  local k = {}
  wk[k] = i
  if i % 4 == 0 then held[#held + 1] = k end
end
collectgarbage()
p("weak keys", count(wk))
-- Ephemerons: the value refers to its own key.
local eph = setmetatable({}, {__mode = "k"})
for i = 1, 50 do local k = {}; eph[k] = {ref = k, n = i} end
local strong = {}
eph[strong] = {ref = strong}
collectgarbage()
p("ephemeron", count(eph))
-- Strings and numbers are never removed from weak tables.
local ws = setmetatable({}, {__mode = "kv"})
ws[1] = "str"; ws["k"] = 2; ws[{}] = 3; ws[4] = {}
collectgarbage()
p("weak kv", count(ws), ws[1], ws.k)
-- Finalizers run in reverse order of marking; resurrection.
local order = {}
for i = 1, 5 do
  setmetatable({}, {__gc = function() order[#order + 1] = i end})
end
collectgarbage()
p("finalized", table.concat(order, " "))
local saved
do
  local o = setmetatable({name = "phoenix"}, {__gc = function(o) saved = o end})
end
collectgarbage()
p("resurrected", saved and saved.name)
saved = nil
collectgarbage()
-- A finalizer that errors produces a warning, not an error.
warn("@on")
setmetatable({}, {__gc = function() error("in gc") end})
collectgarbage()
warn("@off")
p("after gc error")
-- Finalizers at lua_close: printed by the state's shutdown.
setmetatable({}, {__gc = function() print("closing state finalizer") end})
-- Generational and incremental modes, with allocation churn.
p(collectgarbage("generational"))
local live = {}
for i = 1, 200000 do
  local t = {i, tostring(i)}
  if i % 1000 == 0 then live[#live + 1] = t end
end
p(#live, live[#live][2])
p(collectgarbage("incremental", 100, 200, 10))
for i = 1, 200000 do
  local s = "s" .. (i % 5000)
  if i % 50000 == 0 then collectgarbage("step", 100) end
end
p(collectgarbage("incremental"))
collectgarbage("stop"); p(collectgarbage("isrunning"))
collectgarbage("restart"); p(collectgarbage("isrunning"))
-- Cycles between tables and closures are collected.
local fin = 0
for i = 1, 100 do
  local a, b = {}, {}
  a.b = b; b.a = a
  a.f = function() return b end
  setmetatable(a, {__gc = function() fin = fin + 1 end})
end
collectgarbage(); collectgarbage()
p("cycles finalized", fin)
-- Memory usage comes back down after a large table is released.
local before = collectgarbage("count")
local huge = {}
for i = 1, 300000 do huge[i] = {i} end
local during = collectgarbage("count")
huge = nil
collectgarbage(); collectgarbage()
local after = collectgarbage("count")
p("memory released", during > before + 10000, after < during / 2)
-- Strings: many interned and long strings, freed by the collector.
local strs = {}
for i = 1, 50000 do strs[i] = string.rep("x", i % 100) .. i end
local total = 0
for i = 1, #strs do total = total + #strs[i] end
strs = nil
collectgarbage()
p("strings", total)
-- Weak table of coroutines.
local wc = setmetatable({}, {__mode = "v"})
wc[1] = coroutine.create(function() coroutine.yield() end)
coroutine.resume(wc[1])
collectgarbage()
p("weak coroutine", wc[1] == nil)

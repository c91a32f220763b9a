-- Errors: error/pcall/xpcall (longjmp underneath), error objects, levels,
-- tracebacks, stack overflows of the Lua stack and of the C stack.
local function p(...) print(...) end
p(pcall(error))
p(pcall(error, "msg"))
p(pcall(error, "msg", 0))
p(type(select(2, pcall(error, {1, 2}))))
p(pcall(error, nil))
local function lvl2() error("level two", 2) end
local function caller() lvl2() end
p(pcall(caller))
p(pcall(function() local x; return x.y end))
p(pcall(function() local x = {}; return x.y.z end))
p(pcall(function() return #nil end))
p(pcall(function() return {} < {} end))
p(pcall(function() return 1 < "2" end))
p(pcall(function() return ("x")() end))
p(pcall(function() undefinedglobal() end))
p(pcall(function() local t = setmetatable({}, {__index = function() error("idx") end}); return t.x end))
p(pcall(string.rep))
p(pcall(setmetatable, 1, {}))
p(pcall(function() return math.floor("a") end))
p(pcall(function() return 2^63 | 0 end))
p(pcall(function() return ("abc"):bad() end))
-- xpcall with a message handler and tracebacks.
p(xpcall(function() error("with handler") end, function(m) return "handled: " .. m end))
p(xpcall(function(a, b) return a + b end, print, 3, 4))
local tb = select(2, xpcall(function() local function inner() error("deep") end inner() end, debug.traceback))
p((tb:gsub("\n[^\n]*%[C%][^\n]*", "")))
-- An error in the message handler.
p(xpcall(error, function() error("again") end))
-- Nested pcalls unwinding through many levels.
local depth = 0
local function nest(n)
  if n == 0 then error("bottom " .. depth) end
  depth = depth + 1
  local ok, e = pcall(nest, n - 1)
  error(e .. "<" .. n, 0)
end
p(pcall(nest, 50))
-- Error values carried intact through coroutine boundaries and pcall.
local obj = setmetatable({}, {__tostring = function() return "custom error object" end})
local ok, e = pcall(function() coroutine.wrap(function() error(obj) end)() end)
p(ok, e == obj, tostring(e))
-- Lua stack overflow (infinite Lua recursion): the stack grows to its limit.
local function inf(n) return 1 + inf(n + 1) end
local ok1, e1 = pcall(inf, 1)
p(ok1, (tostring(e1):gsub("^.-:%d+: ", "")))
-- Stack overflow in a message handler.
local function loop() return loop() + 1 end
p(xpcall(loop, function(m) return "h:" .. tostring(m):gsub("^.-:%d+: ", "") end))
-- C stack overflow: recursion through C functions (metamethods, pcall, gsub callbacks).
local mt = {}
mt.__index = function(t, k) return setmetatable({}, mt)[k] end
local ok2, e2 = pcall(function() return setmetatable({}, mt).x end)
p(ok2, (tostring(e2):gsub("^.-:%d+: ", "")))
local function pc(n) return pcall(pc, n + 1) end
local pcr = {pc(1)}
p(#pcr, pcr[#pcr])
local function gs(n) return (("x"):gsub("x", function() return gs(n + 1) end)) end
local ok3, e3 = pcall(gs, 1)
p(ok3, (tostring(e3):gsub("^.-:%d+: ", "")))
local cmt = {__concat = function(a, b) return b .. a end}
local ok4, e4 = pcall(function() local c = setmetatable({}, cmt); return c .. c end)
p(ok4, (tostring(e4):gsub("^.-:%d+: ", "")))
-- Deep but finite recursion through C: tostring with __tostring chains.
local chain
chain = function(n) if n == 0 then return "end" end return tostring(setmetatable({}, {__tostring = function() return chain(n - 1) end})) end
p(chain(150))
-- Deeply nested coroutines resuming each other.
local function nestco(n)
  if n == 0 then return 0 end
  return coroutine.wrap(function() return 1 + nestco(n - 1) end)()
end
p(pcall(nestco, 150))
local okn, en = pcall(nestco, 100000)
p(okn, select(2, en:gsub("errors.lua:%d+: ", "")), (en:gsub("^.*: ", "")))
-- Parser limits and error messages from load.
p(load("return " .. string.rep("(", 300) .. "1" .. string.rep(")", 300)))
p(load(string.rep("a = {", 300) .. string.rep("}", 300)))
p(load("x = = 1"))
p(load("return 'unfinished"))
p(load("local a <const> = 1; a = 2"))
p(load("goto nowhere"))
p(pcall(load, nil))
-- Memory errors are recoverable.
local ok5, e5 = pcall(string.rep, "x", 1 << 40)
p(ok5, e5)
-- error with non-string values, and the error position of tail calls.
p(select("#", pcall(error)), pcall(error, 42), pcall(error, true))
p(pcall(function() return select(-5, 1) end))
p(pcall(next, {}, "nokey"))
p(pcall(rawset, {}, nil, 1))
p(pcall(function() local t = {}; t[0/0] = 1 end))
p(string.format("%s", select(2, pcall(error, setmetatable({}, {__tostring = function() return "E!" end})))))
-- assert.
p(pcall(assert, false), pcall(assert, nil, "assert msg"), pcall(assert, 1, 2, 3))
print("done")

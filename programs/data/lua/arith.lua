-- Integer and float arithmetic, conversions, bitwise operators, math library.
local function p(...) print(...) end

p(1 + 2, 7 // 2, -7 // 2, 7 % -3, -7 % 3, 7.5 // 2, -7.5 % 2, 2^10, 10 / 4)
p(math.maxinteger + 1 == math.mininteger, math.mininteger - 1 == math.maxinteger)
p(math.maxinteger * 2, math.mininteger // -1, math.mininteger % -1)
p(5 & 3, 5 | 3, 5 ~ 3, ~5, 1 << 63, 1 << 64, -1 >> 1, -1 >> 63, 3 << -1, 0xff >> -4)
p(math.tointeger(3.0), math.tointeger(3.5), math.tointeger("8"), math.type(1), math.type(1.0), math.type("1"))
p(3 == 3.0, 2^53 == 2^53 + 1, math.ult(1, -1), math.ult(-1, 1))
p(1e308 * 10, -1e308 * 10, 0/0 ~= 0/0, math.huge, -math.huge)
p(tostring(1e15), tostring(1e16), tostring(0.1), tostring(-0.0), tostring(1/3), 2^63, -2^63)
p(string.format("%.17g %.3f %e %g %a", 0.1, 2/3, 12345.678, 1e-5, 1.0))
p(string.format("%5.2f|%-8d|%08.3f|%+d|%x|%X|%o|%q", 3.14159, 42, -3.5, 7, 255, 255, 8, 1/3))
p(string.format("%q", math.mininteger), string.format("%q", 0.5), string.format("%i", -0))
p(tonumber("0x10"), tonumber("0x1p4"), tonumber("1e2"), tonumber("  12  "), tonumber("12a"), tonumber("z", 36), tonumber("777", 8))
p(tonumber("0x7fffffffffffffff"), tonumber("0xffffffffffffffff"), tonumber("9223372036854775808"), tonumber("-9223372036854775808"))
p(math.floor(-3.5), math.ceil(-3.5), math.floor(2^62), math.abs(math.mininteger), math.abs(-2.5))
p(math.fmod(7, 3), math.fmod(-7, 3), math.fmod(7, -3.5), math.fmod(math.mininteger, -1))
p(math.max(1, 5.5, 3), math.min(4, -2, 0.5), math.sqrt(2), math.exp(1), math.log(8, 2), math.log(100, 10), math.log(2.0))
p(math.sin(1), math.cos(1), math.tan(1), math.asin(0.5), math.acos(0.5), math.atan(1, 2))
p(string.format("%.14g", math.pi), math.modf(3.7), math.modf(-3.7), math.modf(math.huge))
p(8 // 0.0, -8 // 0.0, 0.0 / 0.0 ~= 0.0 / 0.0, pcall(function() return 1 // 0 end))
p(pcall(function() return 1 % 0 end))
p(3 | 0, pcall(function() return 3.5 | 0 end))
p(pcall(function() return "a" + 1 end))
p("10" + 1, "3" * "4", "0x10" + 0, 10 .. 20, 1.5 .. "")
-- Float to integer conversion edges.
p(math.tointeger(2^63), math.tointeger(-2^63), 2^63 == math.maxinteger + 1.0, -2^63 == math.mininteger)
p(math.maxinteger + 0.0, math.mininteger + 0.0, math.maxinteger < 2^63, math.mininteger <= -2^63)
p(1 < 1.5, 1 <= 0.5, -1 < math.mininteger + 0.0, math.maxinteger < math.huge, math.mininteger > -math.huge)
for _, v in ipairs{0, 1, -1, 255, 65535, 2^31, -2^31, 2^53} do
  io.write(string.format("%d %.0f %s; ", math.tointeger(v) or 0, v, tostring(v // 3)))
end
print()
-- Deterministic pseudo-random numbers (xoshiro256**).
math.randomseed(42)
local t = {}
for i = 1, 10 do t[i] = math.random(1, 1000) end
p(table.concat(t, " "))
p(math.random(0) ~= nil, string.format("%.6f", math.random()))
math.randomseed(7, 9)
p(math.random(-10, 10), math.random(math.mininteger, math.maxinteger))
-- Numeric for loops with odd steps and overflow edges.
local n = 0
for i = math.maxinteger - 2, math.maxinteger do n = n + 1 end
for i = math.mininteger, math.mininteger + 2 do n = n + 1 end
for i = 1, 0 do n = n + 100 end
for x = 0.1, 1.0, 0.1 do n = n + 1 end
for i = 10, 1, -3 do io.write(i, " ") end
p(n)
p(pcall(function() for i = 1, 10, 0 do end end))
-- Integer hashing of float keys.
local k = {}
k[1] = "a"; k[1.0] = "b"; k[2^53] = "c"
p(k[1], k[2^53 | 0], #k)
-- String to number and back in loops.
local s = 0
for i = 1, 1000 do s = s + tonumber(tostring(i * 1.25)) end
p(s)
p(string.format("%.3f", 1e300 * 1e-300), 7 // 0.5, 2^-1074, 2^1023 * 1.5)

-- The string library: patterns, gsub, format, pack/unpack, utf8.
local function p(...) print(...) end
local s = "The quick brown fox jumps over the lazy dog"
p(#s, s:upper(), s:lower(), s:len(), s:reverse())
p(s:find("fox"), s:find("o", 20), s:find("%s(%a+)%s"), s:find(".", 1, true), s:find("xyz"))
p(s:match("(%a+) (%a+)$"), s:match("()ow()"), s:match("%f[%a]%a%a%a%f[%A]"))
p(s:gsub("o", "0"), s:gsub("%w+", string.upper, 3), s:gsub("(%w+) (%w+)", "%2 %1"))
p(("hello world"):gsub("o", {o = "OO"}), ("abc"):gsub("", "-"), ("abc"):gsub(".", {a = 1, b = "B", c = false}))
for w in s:gmatch("%a+") do io.write(w:sub(1, 1)) end
print()
for k, v in ("a=1, b=22, ccc=333"):gmatch("(%w+)=(%w+)") do io.write(k, ":", v, ";") end
print()
p(("  trim me  "):match("^%s*(.-)%s*$"), ("[[nested]]"):match("%[(%b[])%]"), ("x = 10"):match("^(%w+)%s*=%s*(%d+)$"))
p(string.rep("ab", 5, ","), string.rep("x", 0), string.rep("", 100), ("abc"):sub(-2), ("abc"):sub(2, 100), ("abc"):sub(0))
p(string.byte("ABC", 1, -1), string.char(72, 105), ("%d"):format(3), ("x"):byte(10))
p(pcall(string.rep, "x", -1), pcall(string.char, 256))
p(string.format("%s %s %s", nil, true, 12), string.format("%10s|%-10s|%.2s", "r", "l", "trunc"))
p(string.format("%c%c%c", 76, 117, 97), string.format("%%"), string.format("%5.1s|", "abc"))
p(pcall(string.format, "%d", 1.5), string.format("%d", 3.0), string.format("%.0f", 0.5), string.format("%.0f", 1.5))
p(string.format("%g %g %g %g", 100000, 1000000, 1e-4, 1e-5), string.format("%.20f", 0.1))
p(string.format("%-+8.3e|% d|%#x|%#o", 12345.6789, 5, 255, 8))
p(string.format("%q", "line\nbreak\0zero\"quote\\"), string.format("%q", 1/0), string.format("%q", -1/0))
-- pack/unpack.
local packed = string.pack("<i4 >i8 z s1 d f B h", -2, 2^40, "zs", "len", 3.25, 1.5, 255, -300)
p(#packed, string.unpack("<i4 >i8 z s1 d f B h", packed))
p(string.packsize("i4 i8 d"), string.packsize("!8 i1 i8"), string.unpack("<I3", "\1\2\3"), string.unpack(">I3", "\1\2\3"))
p(pcall(string.pack, "i1", 200), string.unpack("j", string.pack("j", math.mininteger)))
p(string.format("%q", string.pack(">I2 <I2 i16", 0x1234, 0x1234, -1)))
-- utf8.
local u = "héllo wörld ✓ 𝄞"
p(utf8.len(u), #u, utf8.char(72, 233, 0x2713, 0x1D11E), utf8.codepoint(u, 1, 3), utf8.offset(u, 3))
for _, c in utf8.codes("aé✓") do io.write(c, " ") end
print()
p(utf8.len("\xff"), pcall(utf8.codepoint, "\xff"), utf8.charpattern)
-- Long strings, concatenation in loops, string comparison.
local parts = {}
for i = 1, 2000 do parts[#parts + 1] = tostring(i) end
local big = table.concat(parts, ",")
p(#big, big:sub(1, 20), big:sub(-20), select(2, big:gsub(",", ",")))
local acc = ""
for i = 1, 300 do acc = acc .. string.char(65 + i % 26) end
p(#acc, acc:sub(1, 30))
p("a" < "b", "abc" < "abd", "Z" < "a", "" < "a", "a\0b" < "a\0c", "abc" == "ab" .. "c")
local sorted = {"pear", "apple", "fig", "banana", "Cherry", "date", "apple2"}
table.sort(sorted)
p(table.concat(sorted, " "))
-- tostring / string coercions.
p(tostring(12), tostring(12.0), tostring(-0.0), 1e100, 123456789012, 2^63, "10" * 2, 10 .. "")
p(string.format("[%s]", table.concat({1, 2.5, "x"}, "|")))
p(("%s=%d"):rep(3, " "):format("a", 1, "b", 2, "c", 3))
-- Long string with patterns over many captures.
local caps = {("abcdefghij"):match("(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)")}
p(#caps, table.concat(caps))
p(("key = value # comment"):gsub("#.*", ""):gsub("%s+$", ""))
p(("camelCaseString"):gsub("(%u)", function(c) return "_" .. c:lower() end))
p(("%a"):rep(3), ("x"):rep(3, "%"), ("1,2,,3"):gsub(",,", ",nil,"))

# Prints every frame slot that one function both stores narrowly and loads
# wider (objdump -d --no-show-raw-insn lines): such a load cannot be
# forwarded from the store buffer.  Widths by mnemonic: movl/movss 4,
# movq/movsd 8.
function width(ins) {
    if (ins == "movl" || ins == "movss") return 4
    if (ins == "movq" || ins == "movsd") return 8
    return 0
}
/^[0-9a-f]+ <.*>:$/ {
    for (s in stored) if (s in loaded && loaded[s] > stored[s]) print "NARROW STORE, WIDE LOAD: " fn " " s
    delete stored; delete loaded; fn = $2; next
}
{
    w = width($2)
    if (!w || split($3 $4, o, ",") != 2) next
    if (o[2] ~ /\(%r[bs]p\)$/ && o[1] ~ /^%/ && (!(o[2] in stored) || w < stored[o[2]])) stored[o[2]] = w
    if (o[1] ~ /\(%r[bs]p\)$/ && o[2] ~ /^%/ && (!(o[1] in loaded) || w > loaded[o[1]])) loaded[o[1]] = w
}
END { for (s in stored) if (s in loaded && loaded[s] > stored[s]) print "NARROW STORE, WIDE LOAD: " fn " " s }

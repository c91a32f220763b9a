# Prints the frame-slot references inside the innermost loop: from the
# target of the first backward jump to that jump (objdump -d
# --no-show-raw-insn lines of one function).
function hex(s,    v, i) {
    sub(/^0x/, "", s)
    v = 0
    for (i = 1; i <= length(s); i++)
        v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
    return v
}
$1 ~ /^[0-9a-f]+:$/ {
    a = hex(substr($1, 1, length($1) - 1))
    n++; addr[n] = a; text[n] = $0
    if (!found && $2 ~ /^j/ && $3 ~ /^0x/ && hex($3) <= a) { found = 1; lo = hex($3); hi = a }
}
END {
    if (!found) { print "NO LOOP"; exit }
    for (i = 1; i <= n; i++)
        if (addr[i] >= lo && addr[i] <= hi && text[i] ~ /\(%r[bs]p\)/)
            print "STACK REF IN LOOP: " text[i]
}

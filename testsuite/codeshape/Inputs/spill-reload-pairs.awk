# Prints a store of a register to a frame slot directly followed by a load of
# the same slot (objdump -d --no-show-raw-insn lines).
{ ins = $2; ops = $3 $4 }
prev != "" && ins ~ /^mov/ && split(ops, o, ",") == 2 && o[1] == prev { print "SPILL-RELOAD PAIR: " last " / " $0 }
{ prev = ""; if (ins ~ /^mov/ && split(ops, o, ",") == 2 && o[2] ~ /\(%r[bs]p\)$/ && o[1] ~ /^%/) { prev = o[2]; last = $0 } }

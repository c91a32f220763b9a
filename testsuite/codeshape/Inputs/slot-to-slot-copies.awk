# Prints a load of a frame slot into a register directly followed by a store
# of that register to another frame slot: a copy from slot to slot
# (objdump -d --no-show-raw-insn lines).
{ ins = $2; ops = $3 $4 }
reg != "" && ins ~ /^mov/ && split(ops, o, ",") == 2 && o[1] == reg && o[2] ~ /\(%r[bs]p\)$/ && o[2] != from { print "SLOT-TO-SLOT COPY: " last " / " $0 }
{ reg = ""; if (ins ~ /^mov/ && split(ops, o, ",") == 2 && o[1] ~ /\(%r[bs]p\)$/ && o[2] ~ /^%/) { reg = o[2]; from = o[1]; last = $0 } }
